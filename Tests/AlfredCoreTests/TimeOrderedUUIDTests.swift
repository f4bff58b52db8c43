import AlfredCore
import Foundation
import Testing

/// Job ids are version 7 UUIDs: time first, so ids made later sort after (to the millisecond).
@Suite struct TimeOrderedUUIDTests {
    @Test func idsCarryTheirMillisecondFirstAndTheVersionAndVariantBits() {
        let at = Date(timeIntervalSince1970: 1_764_000_000.123)
        let id = UUID.timeOrdered(at: at)
        let bytes = withUnsafeBytes(of: id.uuid) { Array($0) }
        let millis = bytes[0..<6].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        #expect(millis == 1_764_000_000_123)
        #expect(bytes[6] >> 4 == 7, "version 7")
        #expect(bytes[8] >> 6 == 0b10, "RFC 9562 variant")
        #expect(UUID(uuidString: id.uuidString) == id)
    }

    @Test func laterIdsSortAfterEarlierOnesAndIdsOfOneMillisecondStillDiffer() {
        let start = Date(timeIntervalSince1970: 1_764_000_000)
        // Mid-millisecond instants, one millisecond apart.
        let ids = (0..<1000).map { UUID.timeOrdered(at: start.addingTimeInterval((Double($0) + 0.5) / 1000)) }
        let text = ids.map { $0.uuidString.lowercased() }
        let sorted = text == text.sorted()
        #expect(sorted, "Postgres orders uuids bytewise, as these strings sort")
        let same = (0..<1000).map { _ in UUID.timeOrdered(at: start) }
        #expect(Set(same).count == 1000)
        #expect(JobID().uuid.uuidString.dropFirst(14).first == "7", "a job's default id is time-ordered")
    }
}
