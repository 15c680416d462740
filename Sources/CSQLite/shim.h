/* SQLite's C API. SQLITE_TRANSIENT is a macro Swift cannot import: it is
 * rebuilt in Swift as unsafeBitCast(-1, to: sqlite3_destructor_type.self). */
#include <sqlite3.h>
