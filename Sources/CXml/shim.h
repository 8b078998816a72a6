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
#include <libxml/xmlerror.h>
#include <libxml/globals.h>

/* xmlFree is a macro over a function pointer in threaded builds of libxml2. */
static inline void cxml_free(void *memory) { xmlFree(memory); }

/* libxml2's generic error handler (a variadic C function, which Swift cannot define):
   prints nothing. */
static void cxml_ignore_generic_error(void *context, const char *message, ...) { (void)context; (void)message; }

/* Parsers that report no errors of their own (gdk-pixbuf's SVG loader) print what a hostile
   file makes libxml2 say on stderr: for this thread and every thread started after. */
static inline void cxml_silence_generic_errors(void) {
    xmlSetGenericErrorFunc(NULL, cxml_ignore_generic_error);
    xmlThrDefSetGenericErrorFunc(NULL, cxml_ignore_generic_error);
}

#endif
