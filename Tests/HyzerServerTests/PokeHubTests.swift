import Foundation
import HyzerSyncProtocol
import Testing

@testable import HyzerServer

/// The live-socket fan-out: per group, newest poke only, and an end for every stream.
@Suite struct PokeHubTests {
    @Test func aSubscriberGetsTheNewestPokeOfItsGroupOnly() async throws {
        let hub = PokeHub()
        let (aID, a) = await hub.subscribe(groupID: "one")
        let (_, b) = await hub.subscribe(groupID: "two")
        #expect(await hub.subscriberCount(groupID: "one") == 1)

        // Three commits before the socket reads: it needs the latest head, not each one.
        for head in 1...3 { await hub.publish(groupID: "one", poke: Poke(epoch: "e", head: Int64(head))) }
        var pokesA = a.makeAsyncIterator()
        #expect(await pokesA.next()?.head == 3)

        // Unsubscribing ends the stream; the other group's subscriber saw nothing.
        await hub.unsubscribe(groupID: "one", id: aID)
        #expect(await pokesA.next() == nil)
        #expect(await hub.subscriberCount(groupID: "one") == 0)
        await hub.publish(groupID: "two", poke: Poke(epoch: "e", head: 7))
        var pokesB = b.makeAsyncIterator()
        #expect(await pokesB.next()?.head == 7)
    }

    @Test func finishAllEndsEveryStream() async {
        let hub = PokeHub()
        var streams: [AsyncStream<Poke>] = []
        for group in ["one", "one", "two"] { streams.append(await hub.subscribe(groupID: group).stream) }
        await hub.finishAll()
        for stream in streams {
            var pokes = stream.makeAsyncIterator()
            #expect(await pokes.next() == nil)
        }
        #expect(await hub.subscriberCount(groupID: "one") == 0)
    }
}
