// The kiosk's one seam onto libgpiod, for both of its C APIs:
// - libgpiod 1 (1.6.x; package libgpiod2, soname .so.2): Debian 12, Raspberry Pi OS bookworm;
// - libgpiod 2 (2.x; package libgpiod3, soname .so.3): Debian 13, Raspberry Pi OS trixie.
// The two share a header name, an include guard and a few function names but little else.
// Which one is installed is decided here, at build time, from the header itself: libgpiod 1
// defines GPIOD_LINE_BULK_MAX_LINES and libgpiod 2 defines no macro at all. Swift sees only the
// hyzer_gpio_* functions below, so KioskHardware has no #if and one set of calls.
//
// Every function returns -1 (or NULL) with errno set on failure, the kernel's errno where the
// kernel refused (EBUSY, EACCES, EINVAL...), which GpioLineResolver turns into its messages.
#ifndef HYZER_CGPIOD_SHIM_H
#define HYZER_CGPIOD_SHIM_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
// ConditionLock uses timespec through this module. libgpiod 1's header includes <time.h>,
// libgpiod 2's does not; including it here keeps that the same under both.
#include <time.h>

#include <gpiod.h>

#ifdef GPIOD_LINE_BULK_MAX_LINES
#define HYZER_GPIOD_API 1
#else
#define HYZER_GPIOD_API 2
#endif

/// How many edges one read takes at most: the kernel queues 16 per line (libgpiod 1) or per
/// line of a request (libgpiod 2), and the pump reads again while a read comes back full.
#define HYZER_GPIO_EDGE_BATCH 16

/// One edge of an input line.
typedef struct hyzer_gpio_edge {
    /// CLOCK_MONOTONIC, in nanoseconds: the kernel's own stamp.
    uint64_t timestamp_ns;
    int rising;
} hyzer_gpio_edge;

/// A requested line, input or output. Under libgpiod 1 it lives inside its chip and must be
/// released before the chip closes; the Swift side keeps the chip alive for as long as this.
typedef struct hyzer_gpio_line {
#if HYZER_GPIOD_API == 1
    struct gpiod_line *line;
#else
    struct gpiod_line_request *request;
    struct gpiod_edge_event_buffer *events;
    unsigned int offset;
#endif
} hyzer_gpio_line;

/// "libgpiod 1.6.3" or "libgpiod 2.2.1": the library actually loaded, for the log.
static inline void hyzer_gpio_library(char *out, size_t size) {
#if HYZER_GPIOD_API == 1
    snprintf(out, size, "libgpiod %s", gpiod_version_string());
#else
    snprintf(out, size, "libgpiod %s", gpiod_api_version());
#endif
}

static inline struct gpiod_chip *hyzer_gpio_chip_open(const char *path) { return gpiod_chip_open(path); }

/// Under libgpiod 1 this also releases every line still requested through the chip.
static inline void hyzer_gpio_chip_close(struct gpiod_chip *chip) { gpiod_chip_close(chip); }

static inline void hyzer_gpio_copy(char *out, size_t size, const char *text) {
    if (size == 0) return;
    snprintf(out, size, "%s", text ? text : "");
}

/// The chip's name ("gpiochip0"), label ("pinctrl-rp1") and line count.
static inline int hyzer_gpio_chip_describe(
    struct gpiod_chip *chip, char *name, size_t name_size, char *label, size_t label_size, unsigned int *lines) {
#if HYZER_GPIOD_API == 1
    hyzer_gpio_copy(name, name_size, gpiod_chip_name(chip));
    hyzer_gpio_copy(label, label_size, gpiod_chip_label(chip));
    *lines = gpiod_chip_num_lines(chip);
    return 0;
#else
    struct gpiod_chip_info *info = gpiod_chip_get_info(chip);
    if (!info) return -1;
    hyzer_gpio_copy(name, name_size, gpiod_chip_info_get_name(info));
    hyzer_gpio_copy(label, label_size, gpiod_chip_info_get_label(info));
    *lines = (unsigned int)gpiod_chip_info_get_num_lines(info);
    gpiod_chip_info_free(info);
    return 0;
#endif
}

/// The line's name (which = 0) or its consumer, the process holding it (which = 1), read fresh
/// from the kernel: 1 with the text in `out`, 0 when it has none, -1 on an error.
static inline int hyzer_gpio_line_text(struct gpiod_chip *chip, unsigned int offset, int which, char *out, size_t size) {
    const char *text;
#if HYZER_GPIOD_API == 1
    struct gpiod_line *line = gpiod_chip_get_line(chip, offset);
    if (!line) return -1;
    if (which == 1 && gpiod_line_update(line) != 0) return -1;
    text = which == 1 ? gpiod_line_consumer(line) : gpiod_line_name(line);
    if (!text) return 0;
    hyzer_gpio_copy(out, size, text);
    return 1;
#else
    struct gpiod_line_info *info = gpiod_chip_get_line_info(chip, offset);
    if (!info) return -1;
    text = which == 1 ? gpiod_line_info_get_consumer(info) : gpiod_line_info_get_name(info);
    int found = text != NULL;
    if (found) hyzer_gpio_copy(out, size, text);
    gpiod_line_info_free(info);
    return found;
#endif
}

#if HYZER_GPIOD_API == 2
/// One line requested with `settings`, its own request (one per line, so a busy line fails alone
/// and is named). Frees the builder objects on every path.
static inline struct gpiod_line_request *hyzer_gpio_request_one(
    struct gpiod_chip *chip, unsigned int offset, const char *consumer, struct gpiod_line_settings *settings) {
    struct gpiod_line_request *request = NULL;
    errno = 0;
    struct gpiod_line_config *lines = gpiod_line_config_new();
    struct gpiod_request_config *config = gpiod_request_config_new();
    if (lines && config && gpiod_line_config_add_line_settings(lines, &offset, 1, settings) == 0) {
        gpiod_request_config_set_consumer(config, consumer);
        request = gpiod_chip_request_lines(chip, config, lines);
    } else if (errno == 0) {
        errno = ENOMEM;
    }
    int saved = errno;
    if (config) gpiod_request_config_free(config);
    if (lines) gpiod_line_config_free(lines);
    errno = saved;
    return request;
}
#endif

/// Requests an input for edge events on both edges, with the pull-up bias or as the line is,
/// stamped on CLOCK_MONOTONIC, and reads its level. NULL with errno on failure.
static inline hyzer_gpio_line *hyzer_gpio_request_input(
    struct gpiod_chip *chip, unsigned int offset, const char *consumer, int pull_up, int *level) {
    hyzer_gpio_line *handle = calloc(1, sizeof *handle);
    if (!handle) return NULL;
#if HYZER_GPIOD_API == 1
    struct gpiod_line *line = gpiod_chip_get_line(chip, offset);
    int flags = pull_up ? GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP : 0;
    if (line && gpiod_line_request_both_edges_events_flags(line, consumer, flags) == 0) {
        int value = gpiod_line_get_value(line);
        if (value >= 0) {
            handle->line = line;
            *level = value;
            return handle;
        }
        int saved = errno;
        gpiod_line_release(line);
        errno = saved;
    }
#else
    struct gpiod_line_settings *settings = gpiod_line_settings_new();
    if (settings) {
        gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_INPUT);
        gpiod_line_settings_set_edge_detection(settings, GPIOD_LINE_EDGE_BOTH);
        gpiod_line_settings_set_bias(settings, pull_up ? GPIOD_LINE_BIAS_PULL_UP : GPIOD_LINE_BIAS_AS_IS);
        // Never REALTIME: the Pi has no RTC and its wall clock jumps when NTP first syncs.
        gpiod_line_settings_set_event_clock(settings, GPIOD_LINE_CLOCK_MONOTONIC);
        handle->request = hyzer_gpio_request_one(chip, offset, consumer, settings);
        gpiod_line_settings_free(settings);
    }
    if (handle->request) {
        handle->offset = offset;
        handle->events = gpiod_edge_event_buffer_new(HYZER_GPIO_EDGE_BATCH);
        enum gpiod_line_value value = gpiod_line_request_get_value(handle->request, offset);
        if (handle->events && value != GPIOD_LINE_VALUE_ERROR) {
            *level = value == GPIOD_LINE_VALUE_ACTIVE ? 1 : 0;
            return handle;
        }
        int saved = handle->events ? errno : ENOMEM;
        if (handle->events) gpiod_edge_event_buffer_free(handle->events);
        gpiod_line_request_release(handle->request);
        errno = saved;
    }
#endif
    int saved = errno;
    free(handle);
    errno = saved ? saved : EINVAL;
    return NULL;
}

/// Requests an output driven to `level` from the start. NULL with errno on failure.
static inline hyzer_gpio_line *hyzer_gpio_request_output(
    struct gpiod_chip *chip, unsigned int offset, const char *consumer, int level) {
    hyzer_gpio_line *handle = calloc(1, sizeof *handle);
    if (!handle) return NULL;
#if HYZER_GPIOD_API == 1
    struct gpiod_line *line = gpiod_chip_get_line(chip, offset);
    if (line && gpiod_line_request_output(line, consumer, level) == 0) {
        handle->line = line;
        return handle;
    }
#else
    struct gpiod_line_settings *settings = gpiod_line_settings_new();
    if (settings) {
        gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_OUTPUT);
        gpiod_line_settings_set_output_value(settings, level ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE);
        handle->request = hyzer_gpio_request_one(chip, offset, consumer, settings);
        gpiod_line_settings_free(settings);
    }
    if (handle->request) {
        handle->offset = offset;
        return handle;
    }
#endif
    int saved = errno;
    free(handle);
    errno = saved ? saved : EINVAL;
    return NULL;
}

/// The fd to poll() for an input's edges. It belongs to the line: never close it.
static inline int hyzer_gpio_line_fd(hyzer_gpio_line *handle) {
#if HYZER_GPIOD_API == 1
    return gpiod_line_event_get_fd(handle->line);
#else
    return gpiod_line_request_get_fd(handle->request);
#endif
}

static inline int hyzer_gpio_line_set(hyzer_gpio_line *handle, int level) {
#if HYZER_GPIOD_API == 1
    return gpiod_line_set_value(handle->line, level);
#else
    return gpiod_line_request_set_value(
        handle->request, handle->offset, level ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE);
#endif
}

/// Reads the edges queued on an input, at most `max` (≤ HYZER_GPIO_EDGE_BATCH). The count, or -1
/// with errno: EAGAIN when none are queued (the fd is non-blocking), EIO when the chip is gone.
static inline int hyzer_gpio_read_edges(hyzer_gpio_line *handle, hyzer_gpio_edge *out, unsigned int max) {
    if (max > HYZER_GPIO_EDGE_BATCH) max = HYZER_GPIO_EDGE_BATCH;
#if HYZER_GPIOD_API == 1
    struct gpiod_line_event events[HYZER_GPIO_EDGE_BATCH];
    int count = gpiod_line_event_read_fd_multiple(gpiod_line_event_get_fd(handle->line), events, max);
    for (int i = 0; i < count; i++) {
        out[i].timestamp_ns = (uint64_t)events[i].ts.tv_sec * 1000000000u + (uint64_t)events[i].ts.tv_nsec;
        out[i].rising = events[i].event_type == GPIOD_LINE_EVENT_RISING_EDGE;
    }
    return count;
#else
    int count = gpiod_line_request_read_edge_events(handle->request, handle->events, max);
    for (int i = 0; i < count; i++) {
        struct gpiod_edge_event *event = gpiod_edge_event_buffer_get_event(handle->events, (unsigned long)i);
        out[i].timestamp_ns = gpiod_edge_event_get_timestamp_ns(event);
        out[i].rising = gpiod_edge_event_get_event_type(event) == GPIOD_EDGE_EVENT_RISING_EDGE;
    }
    return count;
#endif
}

/// Gives the line back to the kernel. Under libgpiod 1, only while its chip is still open.
static inline void hyzer_gpio_line_release(hyzer_gpio_line *handle) {
    if (!handle) return;
#if HYZER_GPIOD_API == 1
    gpiod_line_release(handle->line);
#else
    if (handle->events) gpiod_edge_event_buffer_free(handle->events);
    gpiod_line_request_release(handle->request);
#endif
    free(handle);
}

#endif
