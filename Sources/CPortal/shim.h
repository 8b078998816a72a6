/* libportal and libportal-gtk4 for the app's calls to the desktop portal (Set as
   Background): declarations only, no logic. */
#ifndef GPHOTOBROWSE_CPORTAL_H
#define GPHOTOBROWSE_CPORTAL_H

#include <libportal-gtk4/portal-gtk4.h>

#endif
