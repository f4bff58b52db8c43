#ifndef ALFRED_PROCESS_GUARD_H
#define ALFRED_PROCESS_GUARD_H

/// Sets no-new-privileges and clears the dumpable flag for the calling process (Linux `prctl`,
/// which Swift cannot call: it is variadic). Returns 0, or -1 with errno set.
int alfred_restrict_process(void);

#endif
