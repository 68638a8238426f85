import GRDB

/// Query-interface requests run through the connection's statement cache.
///
/// GRDB prepares a new SQLite statement for every query-interface fetch (it builds the SQL,
/// then `sqlite3_prepare`s it), which was 15% of all CPU on the path of a score from one
/// device to another (`perf record` of `hyzer-bench sync-latency`): the parser and
/// planner, again and again, for the same few dozen queries. These run the same request
/// through `Database.cachedStatement`: the SQL is still built by the query interface (no SQL
/// is written by hand), and SQLite prepares each distinct text once per connection.
///
/// Only for plain requests on one table: a request with associations (`including`) needs
/// GRDB's row adapters, which a bare statement does not carry.
extension QueryInterfaceRequest where RowDecoder: FetchableRecord {
    func cachedAll(_ db: Database) throws -> [RowDecoder] {
        try RowDecoder.fetchAll(db.cachedStatement(literal: "\(self)"))
    }

    func cachedOne(_ db: Database) throws -> RowDecoder? {
        try RowDecoder.fetchOne(db.cachedStatement(literal: "\(limit(1))"))
    }
}

extension QueryInterfaceRequest {
    func cachedCount(_ db: Database) throws -> Int {
        try Int.fetchOne(db.cachedStatement(literal: "SELECT COUNT(*) FROM (\(self))")) ?? 0
    }
}

extension TableRecord where Self: FetchableRecord {
    /// The row with this primary key, through the statement cache (see above).
    static func cachedOne(_ db: Database, key: some DatabaseValueConvertible) throws -> Self? {
        try filter(key: key).cachedOne(db)
    }

    static func cachedOne(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Self? {
        try filter(key: key).cachedOne(db)
    }

    static func cachedCount(_ db: Database) throws -> Int { try all().cachedCount(db) }
}
