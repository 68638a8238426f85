import Foundation
import GRDB

/// What a named write may read besides its arguments: the device and the store's clock,
/// read once when the write starts.
public struct StoreContext: Sendable {
    public var deviceID: String
    public var now: Date
}

/// Which of the two databases a named read or write runs on.
enum StoreTarget: Sendable { case domain, operational }

/// A named write of the store: one transaction that keeps its invariants. Built by the
/// store's own static functions (`.recordScore(_:)`, `.changeLedger { … }`), run with
/// `HyzerDatabase.write(_:)`, synchronously or with `await`: the one way to call a write
/// (docs/architecture.md, "One way to call the store").
public struct StoreWrite<Value: Sendable>: Sendable {
    typealias Target = StoreTarget
    let target: Target
    let body: @Sendable (Database, StoreContext) throws -> Value

    init(_ target: Target = .domain, _ body: @escaping @Sendable (Database, StoreContext) throws -> Value) {
        self.target = target
        self.body = body
    }
}

/// A named read of the store, in one read transaction so what it returns agrees; run with
/// `HyzerDatabase.read(_:)`, synchronously or with `await`.
public struct StoreRead<Value: Sendable>: Sendable {
    let target: StoreTarget
    let body: @Sendable (Database) throws -> Value

    init(_ target: StoreTarget = .domain, _ body: @escaping @Sendable (Database) throws -> Value) {
        self.target = target
        self.body = body
    }
}

/// A transaction's named access to one of the databases (`Outbox`, `ChangeLedger`): the
/// database it works on, and how a write or a read makes it from the connection. Its
/// metatype crosses into the database's closures, hence `SendableMetatype` (the scope
/// itself holds the connection and never leaves the transaction).
protocol StoreScope: SendableMetatype {
    static var target: StoreTarget { get }
    init(db: Database, now: Date)
}

extension StoreWrite {
    /// A write through `Scope`, in one transaction, at the time of the store's clock.
    static func scoped<Scope: StoreScope>(_ body: @escaping @Sendable (Scope) throws -> Value) -> Self {
        StoreWrite(Scope.target) { db, context in try body(Scope(db: db, now: context.now)) }
    }
}

extension StoreRead {
    /// A read through `Scope`. A read has no write time, so it gets the epoch; writes
    /// through it throw (the transaction is read-only).
    static func scoped<Scope: StoreScope>(_ body: @escaping @Sendable (Scope) throws -> Value) -> Self {
        StoreRead(Scope.target) { db in try body(Scope(db: db, now: Date(timeIntervalSince1970: 0))) }
    }
}

extension StoreRead {
    /// This read and `other` in one read transaction of the same database: what they
    /// return agrees, and async code makes one trip to a reader instead of two. (An async
    /// read of a pool crosses four queues: the reader pool's, the reader's, and the way
    /// back; the sync engine's loop measured them.)
    public func and<Other>(_ other: StoreRead<Other>) -> StoreRead<(Value, Other)> {
        precondition(target == other.target, "reads of two databases cannot share a transaction")
        let (first, second) = (body, other.body)
        return StoreRead<(Value, Other)>(target) { db in (try first(db), try second(db)) }
    }

    /// This read with its value transformed inside the transaction.
    public func map<Other>(_ transform: @escaping @Sendable (Value) -> Other) -> StoreRead<Other> {
        let body = self.body
        return StoreRead<Other>(target) { db in transform(try body(db)) }
    }

    /// `read` of each key, in one transaction; a key whose read throws is left out.
    public static func each<Key: Hashable & Sendable, Element>(
        _ keys: [Key], _ read: (Key) -> StoreRead<Element>
    ) -> StoreRead<[Key: Element]> where Value == [Key: Element] {
        let reads = keys.map { ($0, read($0)) }
        let target = reads.first?.1.target ?? .domain
        precondition(reads.allSatisfy { $0.1.target == target }, "reads of two databases cannot share a transaction")
        return StoreRead(target) { db in
            var values: [Key: Element] = [:]
            for (key, read) in reads { values[key] = try? read.body(db) }
            return values
        }
    }
}

extension StoreWrite {
    /// This write, then the read `next` makes from its value, in the same transaction:
    /// what the write left, read without another trip to the database.
    public func then<Next>(_ next: @escaping @Sendable (Value) -> StoreRead<Next>) -> StoreWrite<(Value, Next)> {
        let (body, target) = (self.body, self.target)
        return StoreWrite<(Value, Next)>(target) { db, context in
            let value = try body(db, context)
            let read = next(value)
            precondition(read.target == target, "reads of two databases cannot share a transaction")
            return (value, try read.body(db))
        }
    }
}
