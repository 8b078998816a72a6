/* SQLite 3 for the photo index (PhotoIO's `Index/`): declarations, and SQLITE_TRANSIENT,
 * a macro casting -1 to a destructor, which Swift does not import. */
#ifndef GPHOTOBROWSE_CSQLITE_H
#define GPHOTOBROWSE_CSQLITE_H

#include <sqlite3.h>

/* Tells sqlite3_bind_text to copy the text: the Swift string's bytes live only for the call. */
static inline sqlite3_destructor_type gpb_sqlite_transient(void) { return SQLITE_TRANSIENT; }

#endif
