/// A short message over the current screen.
public struct Notice: Sendable, Equatable {
    public enum Kind: Sendable, Equatable { case info, error }
    public var text: String
    public var kind: Kind
    public var shownAt: Millis
}
