import Foundation

/// A time that codes as seconds since 1970, a plain number: the form the sync protocol and
/// both databases keep times in, so a value written by one side reads back bit for bit on
/// the other. On its own a `Date` codes as the coder's date strategy says (by default
/// seconds since 2001), which would make the wire format depend on who built the coder.
@propertyWrapper
public struct UnixSeconds: Sendable, Hashable, Codable {
    public var wrappedValue: Date

    public init(wrappedValue: Date) { self.wrappedValue = wrappedValue }

    public init(from decoder: any Decoder) throws {
        wrappedValue = Date(timeIntervalSince1970: try decoder.singleValueContainer().decode(Double.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue.timeIntervalSince1970)
    }
}
