#ifndef ALFRED_PEER_IO_H
#define ALFRED_PEER_IO_H

#include <stddef.h>
#include <sys/types.h>

/// Asks the kernel to attach, to every read from the Unix stream socket `fd`, the process id of the
/// process that wrote those bytes (SO_PASSCRED). Returns 0, or -1 with errno set.
int alfred_attribute_writes(int fd);

/// Reads at most `length` bytes from `fd` (non-blocking or not, as the descriptor is). With
/// SO_PASSCRED the kernel never joins bytes of two writers in one read, and `*writer` gets the pid
/// (in the reader's namespace) of the process that wrote these bytes, or 0 if none was attached.
/// Returns the byte count, 0 at end of stream, or -1 with errno set.
ssize_t alfred_read_attributed(int fd, void *buffer, size_t length, int *writer);

/// The kernel's record of the process that connected to `fd` (SO_PEERCRED). Returns 0, or -1.
int alfred_peer_credentials(int fd, int *pid, unsigned int *uid, unsigned int *gid);

/// accept4 and pipe2 with close-on-exec (GNU extensions Swift's Glibc does not import).
int alfred_accept_cloexec(int fd);
int alfred_pipe_cloexec(int descriptors[2]);

#endif
