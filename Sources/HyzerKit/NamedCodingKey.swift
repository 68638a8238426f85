/// A coding key made from a name known only at run time: a column that a database
/// decoding strategy maps to a property, or a figure's name in a JSON object of figures.
public struct NamedCodingKey: CodingKey, Sendable, Hashable {
    public var stringValue: String
    public var intValue: Int? { nil }
    public init(_ name: String) { stringValue = name }
    public init(stringValue: String) { self.stringValue = stringValue }
    public init?(intValue: Int) { nil }
}
