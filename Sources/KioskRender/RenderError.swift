import CSDL2

/// Why the display could not be opened or drawn on: SDL's reason after what failed, or a
/// sentence of the kiosk's own (no display found, a KMS card that cannot drive a panel).
public struct RenderError: Error, CustomStringConvertible {
    public var description: String
    init(_ what: String) { description = "\(what): \(String(cString: SDL_GetError()))" }
    init(message: String) { description = message }
}
