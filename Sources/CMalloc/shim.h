// glibc's allocator controls (mallopt, mallinfo2, malloc_info, malloc_trim), which Swift's
// Glibc module leaves out, and the process's transparent-huge-page switch, whose prctl is
// variadic in C and so cannot be called from Swift.
#include <malloc.h>
#include <stdio.h>
#include <sys/prctl.h>

/// prctl(PR_SET_THP_DISABLE): this process's anonymous memory gets no transparent huge pages.
static inline int hyzer_disable_transparent_huge_pages(void) {
    return prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0);
}

/// prctl(PR_GET_THP_DISABLE): 1 when this process gets no transparent huge pages, 0 when it
/// may, -1 when the kernel cannot say.
static inline int hyzer_transparent_huge_pages_disabled(void) {
    return prctl(PR_GET_THP_DISABLE, 0, 0, 0, 0);
}
