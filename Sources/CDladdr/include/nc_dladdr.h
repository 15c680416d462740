#ifndef NC_DLADDR_H
#define NC_DLADDR_H

/// Which loaded image (the executable or a shared library) holds `address`, as dladdr
/// says: the path of its file and the address it is loaded at. Returns 0, and sets
/// neither, when no image holds it. Hidden: each plugin library that links NormPluginKit
/// keeps it to itself.
///
///     const char *path; const void *base;
///     if (nc_image_of((const void *)nc_plugin_init, &path, &base)) { ... }
__attribute__((visibility("hidden")))
int nc_image_of(const void *address, const char **path, const void **base);

#endif
