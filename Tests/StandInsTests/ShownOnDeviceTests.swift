import Foundation
import StandIns
import Testing

/// What a device shows of the accepted pushes: one notification per collapse id, none for background.
@Suite(.timeLimit(.minutes(5))) struct ShownOnDeviceTests {
    func delivery(_ token: String, collapse: String?, type: String = "alert", at seconds: Double) -> APNsDelivery {
        let json = """
            {"device_token":"\(token)","apns_id":"\(UUID().uuidString.lowercased())","push_type":"\(type)","priority":10,
             "expiration":0,\(collapse.map { "\"collapse_id\":\"\($0)\"," } ?? "")"topic":"app","payload":"e30=",
             "received_at_ms":\(seconds * 1000)}
            """
        return try! JSONDecoder().decode(APNsDelivery.self, from: Data(json.utf8))
    }

    @Test func copiesUnderOneCollapseIDShowOnceAndTheLatestWins() {
        let first = delivery("a", collapse: "reminder:1", at: 1)
        let copy = delivery("a", collapse: "reminder:1", at: 2)
        let other = delivery("a", collapse: "reminder:2", at: 3)
        let plain = [delivery("a", collapse: nil, at: 4), delivery("a", collapse: nil, at: 5)]
        let silent = delivery("a", collapse: nil, type: "background", at: 6)
        let shown = APNsDelivery.shownOnDevice([first, copy, other] + plain + [silent])
        #expect(shown == [copy, other] + plain)
    }
}
