// dladdr and Dl_info are a GNU extension of glibc's <dlfcn.h> (Darwin's declares them
// always): asked for here, in the one file that calls them, so that no Swift target needs
// `-Xcc -D_GNU_SOURCE`, an unsafe flag, which SwiftPM refuses in a package's dependencies.
#define _GNU_SOURCE
#include <dlfcn.h>

#include "nc_dladdr.h"

int nc_image_of(const void *address, const char **path, const void **base) {
    Dl_info info;
    if (dladdr(address, &info) == 0) return 0;
    *path = info.dli_fname;
    *base = info.dli_fbase;
    return 1;
}
