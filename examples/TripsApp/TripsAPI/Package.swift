// swift-tools-version:6.0
// Written by normcache codegen (moduleType swiftPackage in apollo-codegen-config.json);
// rewritten on every run.

import PackageDescription

let package = Package(
    name: "TripsAPI",
    platforms: [.iOS(.v15), .macOS(.v14), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1)],
    products: [
        .library(name: "TripsAPI", targets: ["TripsAPI"]),
    ],
    dependencies: [
        .package(name: "normcache", path: "../../.."),
    ],
    targets: [
        .target(
            name: "TripsAPI",
            dependencies: [.product(name: "NormAPI", package: "normcache")],
            path: "./Sources"
        ),
    ]
)
