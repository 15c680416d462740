/*
 * unresolved_symbol.c — BREAKS: linking at load time. nc_plugin_init calls
 * nc_helper_that_no_library_defines, which no library defines; `clang -shared` accepts
 * that, but the host's dlopen(RTLD_NOW) cannot resolve it, so the host must refuse the
 * library and the message must name the missing symbol.
 */
#include <normcache_plugin.h>

extern int nc_helper_that_no_library_defines(void);

int nc_plugin_init(const nc_host_api *host, nc_plugin *plugin, char *error, size_t error_size) {
    (void)host;
    (void)plugin;
    (void)error;
    (void)error_size;
    return nc_helper_that_no_library_defines();
}
