/// A kiosk's start-up failure, said in one line.
public struct KioskError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
