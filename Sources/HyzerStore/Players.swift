import Foundation
import GRDB
import HyzerKit

/// Registered players (FR11): reference data, last write wins.
extension StoreWrite where Value == Void {
    public static func savePlayer(_ player: Player) -> Self {
        StoreWrite { db, context in try Rows.save(player, at: Rows.seconds(context.now), db) }
    }
}

extension StoreRead where Value == [Player] {
    public static var players: Self {
        StoreRead { db in try PlayerRow.order(Column("display_name").collating(.nocase)).fetchAll(db).map(Rows.player) }
    }
}
