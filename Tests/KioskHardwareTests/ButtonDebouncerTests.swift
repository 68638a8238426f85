import Testing

@testable import KioskHardware

@Suite("Button debouncer")
struct ButtonDebouncerTests {
    /// Feeds edges, then polls at every deadline up to `untilMs`, as the input thread would.
    func run(_ input: [EdgeEvent], untilMs: Double, timing: ButtonTiming = ButtonTiming(), initialLevel: Int = 1) -> [KnobEvent] {
        var button = ButtonDebouncer(timing: timing, initialLevel: initialLevel)
        var events: [KnobEvent] = []
        let end = UInt64(untilMs * 1_000_000)
        for edge in input {
            while let deadline = button.nextDeadlineNs, deadline < edge.timestampNs {
                button.poll(now: deadline) { events.append($0) }
            }
            button.feed(edge) { events.append($0) }
        }
        while let deadline = button.nextDeadlineNs, deadline <= end {
            button.poll(now: deadline) { events.append($0) }
        }
        return events
    }

    @Test func cleanClickIsPressThenRelease() {
        let events = run([sw(0, atMs: 10), sw(1, atMs: 110)], untilMs: 1000)
        #expect(events == [.press(timestampNs: 15 * ms), .release(timestampNs: 115 * ms, afterLongPress: false)])
    }

    @Test func bounceIsOnePressStampedWhenItSettled() {
        // Chatter for 2 ms on press and on release.
        let input = [
            sw(0, atMs: 10), sw(1, atMs: 10.3), sw(0, atMs: 10.9), sw(1, atMs: 11.5), sw(0, atMs: 12),
            sw(1, atMs: 200), sw(0, atMs: 200.4), sw(1, atMs: 201),
        ]
        let events = run(input, untilMs: 1000)
        #expect(events == [.press(timestampNs: 17 * ms), .release(timestampNs: 206 * ms, afterLongPress: false)])
    }

    @Test func glitchShorterThanTheDebounceIsIgnored() {
        #expect(run([sw(0, atMs: 10), sw(1, atMs: 14.9)], untilMs: 1000).isEmpty)
    }

    @Test func longPressFiresWhileHeldThenRelease() {
        var button = ButtonDebouncer()
        var events: [KnobEvent] = []
        button.feed(sw(0, atMs: 100)) { events.append($0) }
        #expect(button.nextDeadlineNs == 105 * ms)
        button.poll(now: 105 * ms) { events.append($0) }
        // The next thing to wait for is the long press, measured from when the finger pressed.
        #expect(button.nextDeadlineNs == 700 * ms)
        button.poll(now: 699 * ms) { events.append($0) }
        #expect(events == [.press(timestampNs: 105 * ms)])
        button.poll(now: 700 * ms) { events.append($0) }
        #expect(events.last == .longPress(timestampNs: 700 * ms))
        #expect(button.nextDeadlineNs == nil, "nothing to do while held after the long press")
        button.feed(sw(1, atMs: 1500)) { events.append($0) }
        button.poll(now: 1505 * ms) { events.append($0) }
        #expect(
            events == [
                .press(timestampNs: 105 * ms), .longPress(timestampNs: 700 * ms),
                .release(timestampNs: 1505 * ms, afterLongPress: true),
            ])
    }

    @Test func releasingJustBeforeTheLongPressTimeIsAClickEvenIfPolledLate() {
        var button = ButtonDebouncer()
        var events: [KnobEvent] = []
        button.feed(sw(0, atMs: 0)) { events.append($0) }
        button.feed(sw(1, atMs: 598)) { events.append($0) }
        // The input thread was busy and only gets round to it well after the long-press time.
        button.poll(now: 650 * ms) { events.append($0) }
        #expect(events == [.press(timestampNs: 5 * ms), .release(timestampNs: 603 * ms, afterLongPress: false)])
    }

    @Test func aGlitchDuringAHoldDoesNotCancelTheLongPress() {
        let input = [sw(0, atMs: 0), sw(1, atMs: 300), sw(0, atMs: 302), sw(1, atMs: 900)]
        let events = run(input, untilMs: 2000)
        #expect(
            events == [
                .press(timestampNs: 5 * ms), .longPress(timestampNs: 600 * ms),
                .release(timestampNs: 905 * ms, afterLongPress: true),
            ])
    }

    @Test func aBouncingReleaseEndsTheHoldWhenTheFingerLifted() {
        // The release chatters from 597 to 599 ms: the hold ended before the 600 ms long-press
        // time, so it is a click, although the release is only certain at 604 ms.
        let click = run([sw(0, atMs: 0), sw(1, atMs: 597), sw(0, atMs: 598), sw(1, atMs: 599)], untilMs: 2000)
        #expect(click == [.press(timestampNs: 5 * ms), .release(timestampNs: 604 * ms, afterLongPress: false)])

        // Let go at 602 ms, but the input thread only polls at 607 ms: it was still a long press.
        var button = ButtonDebouncer()
        var events: [KnobEvent] = []
        button.feed(sw(0, atMs: 0)) { events.append($0) }
        button.poll(now: 5 * ms) { events.append($0) }
        button.feed(sw(1, atMs: 602)) { events.append($0) }
        button.poll(now: 607 * ms) { events.append($0) }
        #expect(
            events == [
                .press(timestampNs: 5 * ms), .longPress(timestampNs: 600 * ms),
                .release(timestampNs: 607 * ms, afterLongPress: true),
            ])
    }

    @Test func configurableTimings() {
        let timing = ButtonTiming(debounceNs: 20 * ms, longPressNs: 300 * ms)
        #expect(run([sw(0, atMs: 0), sw(1, atMs: 15)], untilMs: 1000, timing: timing).isEmpty)
        let events = run([sw(0, atMs: 0), sw(1, atMs: 400)], untilMs: 1000, timing: timing)
        #expect(
            events == [
                .press(timestampNs: 20 * ms), .longPress(timestampNs: 300 * ms),
                .release(timestampNs: 420 * ms, afterLongPress: true),
            ])
    }

    @Test func heldAtStartUpIsIgnoredUntilReleased() {
        let events = run([sw(1, atMs: 1000), sw(0, atMs: 1200), sw(1, atMs: 1300)], untilMs: 3000, initialLevel: 0)
        #expect(events == [.press(timestampNs: 1205 * ms), .release(timestampNs: 1305 * ms, afterLongPress: false)])
    }

    @Test func activeHighWiring() {
        var button = ButtonDebouncer(activeLow: false, initialLevel: 0)
        var events: [KnobEvent] = []
        button.feed(sw(1, atMs: 0)) { events.append($0) }
        button.poll(now: 5 * ms) { events.append($0) }
        #expect(events == [.press(timestampNs: 5 * ms)])
    }

    @Test func knobDecoderKeepsButtonAndRotationEventsInTimeOrder() {
        // A press, then a detent 100 ms later, with no poll in between: the press must come first.
        var input = [sw(0, atMs: 10)]
        input += edges(["11", "01", "00", "10", "11"], startNs: 110 * ms, stepNs: ms)
        let events = KnobDecoder.decode(input)
        #expect(
            events
                == [
                    .press(timestampNs: 15 * ms), .longPress(timestampNs: 610 * ms),
                    .detent(.clockwise, timestampNs: 114 * ms),
                ].sorted { $0.timestampNs < $1.timestampNs })
    }
}
