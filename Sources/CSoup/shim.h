/* libsoup 3 for PhotoIO's web client: declarations and a tiny helper, no logic. */
#ifndef GPHOTOBROWSE_CSOUP_H
#define GPHOTOBROWSE_CSOUP_H

#include <libsoup/soup.h>

/* "max-conns" and "max-conns-per-host" are construct-only properties, set through the
   variadic soup_session_new_with_options, which Swift cannot call. */
static inline SoupSession *csoup_session_new(guint max_conns, guint max_conns_per_host) {
    return soup_session_new_with_options("max-conns", max_conns,
                                         "max-conns-per-host", max_conns_per_host, NULL);
}

#endif
