#define _GNU_SOURCE
#include "peer_io.h"

#ifdef __linux__
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/uio.h>

int alfred_attribute_writes(int fd) {
    int on = 1;
    return setsockopt(fd, SOL_SOCKET, SO_PASSCRED, &on, sizeof on);
}

ssize_t alfred_read_attributed(int fd, void *buffer, size_t length, int *writer) {
    union {
        struct cmsghdr header;
        char space[CMSG_SPACE(sizeof(struct ucred))];
    } control;
    struct iovec vector = { .iov_base = buffer, .iov_len = length };
    struct msghdr message;
    memset(&message, 0, sizeof message);
    message.msg_iov = &vector;
    message.msg_iovlen = 1;
    message.msg_control = control.space;
    message.msg_controllen = sizeof control.space;
    *writer = 0;
    ssize_t count = recvmsg(fd, &message, MSG_CMSG_CLOEXEC);
    if (count <= 0) return count;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&message); c != NULL; c = CMSG_NXTHDR(&message, c)) {
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_CREDENTIALS && c->cmsg_len == CMSG_LEN(sizeof(struct ucred))) {
            struct ucred credentials;
            memcpy(&credentials, CMSG_DATA(c), sizeof credentials);
            *writer = credentials.pid;
        }
    }
    return count;
}

int alfred_peer_credentials(int fd, int *pid, unsigned int *uid, unsigned int *gid) {
    struct ucred credentials;
    socklen_t size = sizeof credentials;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &size) != 0) return -1;
    *pid = credentials.pid;
    *uid = credentials.uid;
    *gid = credentials.gid;
    return 0;
}

int alfred_accept_cloexec(int fd) { return accept4(fd, NULL, NULL, SOCK_CLOEXEC); }

int alfred_pipe_cloexec(int descriptors[2]) { return pipe2(descriptors, O_CLOEXEC); }
#else
#include <errno.h>
#include <unistd.h>
int alfred_accept_cloexec(int fd) { (void)fd; errno = ENOTSUP; return -1; }
int alfred_pipe_cloexec(int descriptors[2]) { return pipe(descriptors); }
int alfred_attribute_writes(int fd) { (void)fd; errno = ENOTSUP; return -1; }
ssize_t alfred_read_attributed(int fd, void *buffer, size_t length, int *writer) {
    (void)fd; (void)buffer; (void)length; *writer = 0; errno = ENOTSUP; return -1;
}
int alfred_peer_credentials(int fd, int *pid, unsigned int *uid, unsigned int *gid) {
    (void)fd; (void)pid; (void)uid; (void)gid; errno = ENOTSUP; return -1;
}
#endif
