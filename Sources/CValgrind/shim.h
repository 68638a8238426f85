// Callgrind's client requests (valgrind/callgrind.h, BSD-style licence) for
// `hyzer-bench render-instructions`: count instructions around each frame only. Outside
// valgrind each request is a few no-op instructions; without valgrind's headers, nothing.
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define HYZER_HAS_CALLGRIND 1
#else
#define HYZER_HAS_CALLGRIND 0
#endif

static inline int hyzer_callgrind_available(void) { return HYZER_HAS_CALLGRIND; }

static inline int hyzer_running_on_valgrind(void) {
#if HYZER_HAS_CALLGRIND
    return (int)RUNNING_ON_VALGRIND;
#else
    return 0;
#endif
}

static inline void hyzer_callgrind_start(void) {
#if HYZER_HAS_CALLGRIND
    CALLGRIND_ZERO_STATS;
    CALLGRIND_START_INSTRUMENTATION;
#endif
}

/// Stops counting and writes what was counted since `hyzer_callgrind_start` as one dump.
static inline void hyzer_callgrind_stop_and_dump(void) {
#if HYZER_HAS_CALLGRIND
    CALLGRIND_STOP_INSTRUMENTATION;
    CALLGRIND_DUMP_STATS;
#endif
}
