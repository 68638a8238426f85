/// The logical drawing area in pixels (after any portrait rotation).
public struct Viewport: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) {
        self.width = max(1, width)
        self.height = max(1, height)
    }
}
