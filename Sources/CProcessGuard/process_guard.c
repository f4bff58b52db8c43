#include "process_guard.h"

#ifdef __linux__
#include <sys/prctl.h>

int alfred_restrict_process(void) {
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return -1;
    if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) return -1;
    return 0;
}

/// Before main, on the only thread there is: no-new-privileges is per thread and inherited by the
/// threads created after it, so setting it later (from Swift's async main) would leave the threads
/// that already exist without it. A failure here is caught by the call from main, which checks.
__attribute__((constructor)) static void alfred_restrict_at_load(void) { (void)alfred_restrict_process(); }
#else
int alfred_restrict_process(void) { return 0; }
#endif
