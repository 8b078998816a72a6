/*
 * gettext for gphotobrowse: the C library's message catalogs (libintl is part of glibc) and
 * setlocale. Declarations only.
 */
#ifndef GPHOTOBROWSE_CINTL_H
#define GPHOTOBROWSE_CINTL_H

#include <libintl.h>
#include <locale.h>

#endif
