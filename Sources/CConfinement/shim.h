/* What decoder processes need from the kernel and libseccomp: declarations, the kernel's
 * constants Swift's Glibc module leaves out, and wrappers for calls Swift cannot make
 * (variadic syscall(), CMSG_* macros). No logic. */
#ifndef GPHOTOBROWSE_CCONFINEMENT_H
#define GPHOTOBROWSE_CCONFINEMENT_H

#include <stddef.h>
#include <stdint.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/socket.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <linux/landlock.h>
#include <seccomp.h>

/* O_PATH, memfd_create(2) and file seals (asm-generic/fcntl.h, linux/memfd.h, linux/fcntl.h: kernel ABI). */
static const unsigned int cconf_MFD_CLOEXEC = 0x0001U;
static const unsigned int cconf_MFD_ALLOW_SEALING = 0x0002U;
static const int cconf_O_PATH = 010000000;
static const int cconf_F_ADD_SEALS = 1033;
static const int cconf_F_GET_SEALS = 1034;
static const int cconf_F_SEAL_SEAL = 0x0001;
static const int cconf_F_SEAL_SHRINK = 0x0002;
static const int cconf_F_SEAL_GROW = 0x0004;
static const int cconf_F_SEAL_WRITE = 0x0008;

static inline int cconf_memfd_create(const char *name, unsigned int flags) {
    return (int)syscall(SYS_memfd_create, name, flags);
}

static inline int cconf_close_range(unsigned int first, unsigned int last) {
    return (int)syscall(SYS_close_range, first, last, 0);
}

/* prctl(2) is variadic. */
static inline int cconf_prctl(int option, unsigned long value) { return prctl(option, value, 0, 0, 0); }

/* Landlock (linux/landlock.h): glibc has no wrappers. */
static inline int cconf_landlock_abi(void) {
    return (int)syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
}
/* attr: struct landlock_ruleset_attr as the running kernel's ABI has it (newer ABIs add
 * fields the build machine's header may not have), so Swift passes the bytes. */
static inline int cconf_landlock_create_ruleset(const void *attr, size_t size) {
    return (int)syscall(SYS_landlock_create_ruleset, attr, size, 0);
}
/* attr: struct landlock_path_beneath_attr (packed: u64 allowed_access, s32 parent_fd). */
static inline int cconf_landlock_add_path(int ruleset, const void *attr) {
    return (int)syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, attr, 0);
}
static inline int cconf_landlock_restrict_self(int ruleset) {
    return (int)syscall(SYS_landlock_restrict_self, ruleset, 0);
}

/* libseccomp's action macros. */
static inline uint32_t cconf_scmp_act_errno(uint16_t error) { return SCMP_ACT_ERRNO(error); }
static const uint32_t cconf_SCMP_ACT_ALLOW = SCMP_ACT_ALLOW;

/* Ancillary data for passing descriptors (CMSG_* are macros). */
static inline size_t cconf_cmsg_space_fds(int count) { return CMSG_SPACE(sizeof(int) * (size_t)count); }
static inline size_t cconf_cmsg_len_fds(int count) { return CMSG_LEN(sizeof(int) * (size_t)count); }
static inline struct cmsghdr *cconf_cmsg_firsthdr(struct msghdr *message) { return CMSG_FIRSTHDR(message); }
static inline struct cmsghdr *cconf_cmsg_nexthdr(struct msghdr *message, struct cmsghdr *header) {
    return CMSG_NXTHDR(message, header);
}
static inline unsigned char *cconf_cmsg_data(struct cmsghdr *header) { return CMSG_DATA(header); }

#endif
