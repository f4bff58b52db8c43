import AlfredCore
import Testing

@Suite(.timeLimit(.minutes(5))) struct GmailMessagePrintingTests {
    @Test func printingAMessageShowsNoHeaders() {
        let message = GmailMessage(id: "m-1", labelIds: ["INBOX"], payload: .init(headers: [
            .init(name: "From", value: "Grace <grace@navy.example>"), .init(name: "Subject", value: "Secret plans")]))
        for text in ["\(message)", String(reflecting: message), { var s = ""; dump(message, to: &s); return s }()] {
            #expect(!text.contains("grace@navy.example") && !text.contains("Secret plans"), "\(text)")
            #expect(text.contains("m-1"))
        }
    }
}
