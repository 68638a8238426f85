import Logging

/// Choosing a backend at start-up.
public enum KnobBackends {
    /// The encoder if its lines can be opened; otherwise the keyboard, with the reason for the
    /// diagnostics screen. The kiosk keeps running either way.
    public static func hardwareOrKeyboard(
        _ config: GpiodKnobConfig = GpiodKnobConfig(),
        provider: (any GpioChipProvider)? = nil
    ) -> (backend: any KnobBackend, fault: GpioError?) {
        do {
            let provider = provider ?? LibgpiodChipProvider(deviceDirectory: config.deviceDirectory)
            return (try GpiodKnobBackend(config: config, provider: provider), nil)
        } catch {
            Logger(label: "hyzer.knob").warning("\(error); using the keyboard and mouse wheel")
            return (KeyboardKnobBackend(), error)
        }
    }
}
