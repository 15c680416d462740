import Foundation
import NormProject

/// The `Package.swift` of the schema types' own package (`moduleType: swiftPackage`), in the
/// shape Apollo iOS writes: one library named after the namespace, of `./Sources`, that
/// depends on NormAPI where Apollo's depends on ApolloAPI. NormAPI comes from the
/// configuration's `apolloSDKDependency` (a git URL at a version, branch or commit, or a
/// local path); by default from the normcache checkout this codegen was built from, by a
/// path relative to the package, so a package generated inside that checkout builds as is.
///
/// ```swift
/// PackageManifest(namespace: "TripsAPI", dependency: nil, packageFolder: "/repo/examples/TripsApp/TripsAPI").text
/// // .package(name: "normcache", path: "../../.."), and the target TripsAPI depending on
/// // .product(name: "NormAPI", package: "normcache")
/// ```
struct PackageManifest {
    let namespace: String
    let dependency: CodegenConfiguration.PackageDependency?
    /// The package's folder, absolute: a path dependency is written relative to it.
    let packageFolder: String

    /// The normcache checkout this codegen was built from (the folder of its Package.swift).
    static let checkout: String = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/", !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
            folder.deleteLastPathComponent()
        }
        return folder.standardizedFileURL.path
    }()

    var text: String {
        let requirement: String = switch dependency {
        case nil: #".package(name: "normcache", path: "\#(Self.relativePath(from: packageFolder, to: Self.checkout))")"#
        case .local(let path)?: #".package(name: "normcache", path: "\#(path)")"#
        case .url(let url, .branch(let name))?: #".package(url: "\#(url)", branch: "\#(name)")"#
        case .url(let url, .commit(let hash))?: #".package(url: "\#(url)", revision: "\#(hash)")"#
        case .url(let url, .exact(let version))?: #".package(url: "\#(url)", exact: "\#(version)")"#
        case .url(let url, .from(let version))?: #".package(url: "\#(url)", from: "\#(version)")"#
        }
        // The package is named after a path dependency's `name:`, else after its URL's last part.
        let package: String = switch dependency {
        case nil, .local?: "normcache"
        case .url(let url, _)?: ((url as NSString).lastPathComponent as NSString).deletingPathExtension
        }
        return """
            // swift-tools-version:6.0
            // Written by normcache codegen (moduleType swiftPackage in apollo-codegen-config.json);
            // rewritten on every run.

            import PackageDescription

            let package = Package(
                name: "\(namespace)",
                platforms: [.iOS(.v15), .macOS(.v14), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1)],
                products: [
                    .library(name: "\(namespace)", targets: ["\(namespace)"]),
                ],
                dependencies: [
                    \(requirement),
                ],
                targets: [
                    .target(
                        name: "\(namespace)",
                        dependencies: [.product(name: "NormAPI", package: "\(package)")],
                        path: "./Sources"
                    ),
                ]
            )

            """
    }

    /// The path from folder `from` to folder `to`, both absolute: `../../..`.
    static func relativePath(from: String, to: String) -> String {
        let from = URL(fileURLWithPath: from).standardizedFileURL.pathComponents, to = URL(fileURLWithPath: to).standardizedFileURL.pathComponents
        let shared = zip(from, to).prefix { $0 == $1 }.count
        let parts = Array(repeating: "..", count: from.count - shared) + to[shared...]
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }
}
