/* A library the programs do not link, as its C module declares it for PhotoIO's
 * `FormatLibraries`, which loads it the first time a file needs it (CHeif, CJxl, CRaw, CTiff).
 * Declarations only.
 *
 * GPB_LIBRARY_TABLE(prefix, soname, FUNCTIONS) declares, for FUNCTIONS(F), a macro that
 * applies F to each function's name:
 * - `struct prefix_library`, a pointer to each of the functions, in their order;
 * - `prefix_library_names()`, their names, in the same order, to look them up by;
 * - `prefix_soname()`, the name `soname` of the library to open.
 * GPB_LIBRARY_VERSION(x) is the version macro x's value as text, for a soname. */
#ifndef GPHOTOBROWSE_LIBRARY_TABLE_H
#define GPHOTOBROWSE_LIBRARY_TABLE_H

#define GPB_LIBRARY_FIELD(name) __typeof__(name) *_Nonnull name;
#define GPB_LIBRARY_NAME(name) #name,
#define GPB_LIBRARY_TABLE(prefix, soname, FUNCTIONS) \
    struct prefix##_library { FUNCTIONS(GPB_LIBRARY_FIELD) }; \
    static inline const char *const *prefix##_library_names(void) { \
        static const char *const names[] = { FUNCTIONS(GPB_LIBRARY_NAME) }; \
        return names; \
    } \
    static inline const char *prefix##_soname(void) { return soname; }

#define GPB_LIBRARY_TEXT(x) #x
#define GPB_LIBRARY_VERSION(x) GPB_LIBRARY_TEXT(x)

#endif
