import CDladdr
import Foundation
import NormPluginABI

// The one `nc_plugin_init` of every Swift plugin. The kit is linked statically into each
// plugin library, so this function is exported by each of them, and the plugin names its
// type once, the way a Swift executable names its entry point:
//
//     @main
//     struct TripsPlugin: Plugin { ... }
//
// `@main` makes the library define `main`, which calls `TripsPlugin.main()`: the kit's
// default ``Plugin/main()`` below, which hands the type to `nc_plugin_init`. The kit finds
// that `main` in its own library (dladdr gives the library, dlsym its symbol), never in the
// host's executable or another library.

/// The plugin type the library's `main` named; set and read under ``entryLock``.
private nonisolated(unsafe) var namedPlugin: (any Plugin.Type)?
private let entryLock = NSLock()

extension Plugin {
    /// Names this type as the library's plugin; called by the `main` that `@main` makes.
    /// Not for calling by hand.
    public static func main() {
        namedPlugin = Self.self
    }
}

/// The entry point the host looks up (normcache_plugin.h): makes the plugin the library's
/// `@main` type names, through ``PluginExport/initialize(_:host:plugin:error:errorSize:)``.
@_cdecl("nc_plugin_init")
public func nc_plugin_init(
    _ host: UnsafePointer<nc_host_api>?, _ plugin: UnsafeMutablePointer<nc_plugin>?,
    _ message: UnsafeMutablePointer<CChar>?, _ size: Int
) -> Int32 {
    do {
        return PluginExport.initialize(try namedPluginType(), host: host, plugin: plugin, error: message, errorSize: size)
    } catch {
        PluginExport.write(String(describing: error), to: message, size: size)
        return 1
    }
}

/// The type the `main` of the library holding this code names.
private func namedPluginType() throws -> any Plugin.Type {
    typealias Main = @convention(c) (Int32, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32
    let entry = unsafeBitCast(nc_plugin_init as nc_plugin_init_fn, to: UnsafeRawPointer.self)
    var library: UnsafePointer<CChar>?, base: UnsafeRawPointer?
    guard nc_image_of(entry, &library, &base) != 0, let library, let handle = dlopen(library, RTLD_LAZY | RTLD_NOLOAD) else {
        throw PluginError("NormPluginKit cannot find the library it is linked into")
    }
    defer { dlclose(handle) }
    var mainLibrary: UnsafePointer<CChar>?, mainBase: UnsafeRawPointer?
    guard let main = dlsym(handle, "main"), nc_image_of(main, &mainLibrary, &mainBase) != 0, mainBase == base else {
        throw PluginError("the library names no plugin: mark its type that conforms to Plugin with @main")
    }
    return try entryLock.withLock {
        namedPlugin = nil
        _ = unsafeBitCast(main, to: Main.self)(CommandLine.argc, CommandLine.unsafeArgv)
        guard let type = namedPlugin else {
            throw PluginError("the library's @main type is not a Plugin: mark its type that conforms to Plugin with @main")
        }
        return type
    }
}
