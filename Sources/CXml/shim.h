/* libxml2's HTML parser for reading folder listing pages of web albums (in the decoder
   processes): declarations and one helper, no logic. */
#ifndef GPHOTOBROWSE_CXML_H
#define GPHOTOBROWSE_CXML_H

#include <libxml/xmlversion.h>
/* Debian builds libxml2 with ICU, whose headers libxml2's would pull in and which clash
   with the copy Swift's Foundation carries. Nothing here uses the one structure they shape
   (a character encoding handler, only ever reached through a pointer). */
#undef LIBXML_ICU_ENABLED
#include <libxml/HTMLparser.h>
#include <libxml/tree.h>
#include <libxml/xmlmemory.h>

/* xmlFree is a macro over a function pointer in threaded builds of libxml2. */
static inline void cxml_free(void *memory) { xmlFree(memory); }

#endif
