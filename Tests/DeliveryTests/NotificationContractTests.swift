import Delivery
import Foundation
import Testing

/// The category and deep link each kind of push carries (docs/api.md, "Notifications").
@Suite(.timeLimit(.minutes(5))) struct NotificationContractTests {
    static func content(_ kind: String, join: String? = nil) -> PushContent {
        PushContent(kind: kind, title: "t", body: "b", scheduledAt: Date(timeIntervalSince1970: 0), collapseID: "c0ffee", joinURL: join)
    }

    @Test func eachKindHasItsCategoryAndLink() {
        #expect(NotificationContract.category(Self.content("meeting.reminder")) == "ALFRED_REMINDER")
        #expect(NotificationContract.category(Self.content("meeting.reminder", join: "https://meet.example.com/x")) == "ALFRED_REMINDER_JOIN")
        #expect(NotificationContract.category(Self.content("mail.urgent")) == "ALFRED_URGENT_MAIL")
        #expect(NotificationContract.category(Self.content("morning.brief")) == "ALFRED_BRIEF")
        #expect(NotificationContract.category(Self.content("mail.relay")) == nil)
        #expect(NotificationContract.link(Self.content("mail.urgent")) == "alfred://urgent/c0ffee")
        #expect(NotificationContract.link(Self.content("mail.relay")) == nil)
    }

    /// "Join" opens only a web link of reasonable size; anything else leaves the plain reminder.
    @Test(arguments: ["javascript:alert(1)", "tel:+3912345", "https://", "ftp://example.com/x",
                      "https://meet.example.com/" + String(repeating: "a", count: 600)])
    func onlyAWebLinkBecomesJoin(link: String) {
        let content = Self.content("meeting.reminder", join: link)
        #expect(content.joinURL == nil)
        #expect(NotificationContract.category(content) == "ALFRED_REMINDER")
    }
}

/// Silent pushes carry nothing the app would show or act on.
@Suite(.timeLimit(.minutes(5))) struct SilentPushContractTests {
    @Test func relayWakeUpsAndRenewalRequestsHaveNoCategoryLinkOrJoin() {
        for kind in ["mail.relay", "mail.relay.renew"] {
            let content = PushContent(kind: kind, title: "", body: "", scheduledAt: Date(timeIntervalSince1970: 0), collapseID: "c",
                                      joinURL: "https://meet.example.com/x")
            #expect(NotificationContract.category(content) == nil && NotificationContract.link(content) == nil, "\(kind)")
        }
    }
}
