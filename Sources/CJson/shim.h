/* json-glib for reading web albums' photo lists (in the decoder processes): declarations
   only. */
#ifndef GPHOTOBROWSE_CJSON_H
#define GPHOTOBROWSE_CJSON_H

#include <json-glib/json-glib.h>

#endif
