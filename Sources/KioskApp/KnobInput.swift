import KioskCore
import KioskHardware
import KioskRender

/// Knob events (from the encoder or the keyboard stand-in) as the state machine's events.
/// A click acts on release; a long press acts when it fires, while still held, and its
/// release is ignored, so a long press never also confirms.
public enum KnobInput {
    public static func kioskEvent(for event: KnobEvent) -> KioskEvent? {
        switch event {
        case .detent(let direction, _): .turned(direction.step)
        case .release(_, afterLongPress: false): .pressed
        case .longPress: .longPressed
        case .press, .release(_, afterLongPress: true): nil
        }
    }

    static func knobKey(_ key: DisplayEvent.Key) -> KnobKey? {
        switch key {
        case .up: .up
        case .down: .down
        case .left: .left
        case .right: .right
        case .enter, .space: .enter
        case .escape, .backspace: .escape
        case .other: nil
        }
    }

    /// What a key does on a screen that takes typing (`Screen.takesTyping`): Enter is done,
    /// Backspace deletes, Space types (its text arrives as `.text`); nil: the knob's meaning.
    static func typingKey(_ key: DisplayEvent.Key) -> TypedKey?? {
        switch key {
        case .enter: .some(.done)
        case .backspace: .some(.delete)
        case .space: .some(nil)
        default: nil
        }
    }

    /// Keyboard input on a screen that takes typing, or nil when it is the knob's.
    static func typingEvents(_ event: DisplayEvent) -> [KioskEvent]? {
        switch event {
        case .text(let text): return [.typed(.text(text))]
        case .key(let key, let down, _):
            guard let typing = typingKey(key) else { return nil }
            return down ? typing.map { [.typed($0)] } ?? [] : []
        default: return nil
        }
    }

    /// Keyboard and wheel input from the display, through the knob's own mapping.
    static func keyboardEvents(_ event: DisplayEvent, mapping: inout KeyboardKnobMapping, nowNs: UInt64) -> [KioskEvent] {
        let knob: [KnobEvent]
        switch event {
        case .key(let key, let down, let isRepeat):
            guard let knobKey = knobKey(key) else { return [] }
            knob = mapping.map(down ? .keyDown(knobKey, isRepeat: isRepeat) : .keyUp(knobKey), atNs: nowNs)
        case .wheel(let notches):
            knob = mapping.map(.wheel(notches), atNs: nowNs)
        default:
            return []
        }
        return knob.compactMap(kioskEvent(for:))
    }
}
