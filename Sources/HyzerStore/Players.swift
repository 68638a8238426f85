import Foundation
import GRDB
import HyzerKit

/// Registered players (FR11): reference data, last write wins.
extension StoreWrite where Value == Void {
    /// Adds or renames a player. A removed or merged player is not brought back by an edit
    /// from a screen that still showed them (issue 35).
    public static func savePlayer(_ player: Player) -> Self {
        StoreWrite { db, context in
            if let row = try PlayerRow.fetchOne(db, key: player.id), row.isRetired {
                throw StoreError.refused("\(row.displayName) is no longer on the roster")
            }
            try Rows.save(player, at: Rows.seconds(context.now), db)
        }
    }
}

extension StoreRead where Value == [Player] {
    /// The roster: players not removed or merged, by name.
    public static var players: Self {
        StoreRead { db in
            try PlayerRow.filter(PlayerRow.Columns.removedAt == nil && PlayerRow.Columns.mergedInto == nil)
                .order(Column("display_name").collating(.nocase)).fetchAll(db).map(Rows.player)
        }
    }
}
