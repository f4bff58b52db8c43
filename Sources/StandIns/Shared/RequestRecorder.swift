import Foundation
import Synchronization

/// One request a stand-in served, as tests and `GET /_fake/requests` see it. Secrets never get in:
/// credential headers and secret-bearing fields read `<redacted>`.
public struct RecordedRequest: Sendable, Codable, Equatable {
    public struct Field: Sendable, Codable, Equatable {
        public var name: String
        public var value: String
    }

    public var method: String
    public var path: String
    /// Query parameters in order, secret ones redacted.
    public var query: [Field]
    /// Header names lowercased, credential values redacted.
    public var headers: [Field]
    /// Form fields, when the body was `application/x-www-form-urlencoded`; secret ones redacted.
    public var form: [Field]?
    /// Any other body as text (JSON with secret keys redacted); nil when empty or a form.
    public var body: String?
    public var status: Int
    /// The injected fault that answered (or delayed) this request, e.g. `rate_limited`.
    public var fault: String?
    public var receivedAt: Date

    public func queryValue(_ name: String) -> String? { query.first { $0.name == name }?.value }
    public func formValue(_ name: String) -> String? { form?.first { $0.name == name }?.value }
    public func header(_ name: String) -> String? { headers.first { $0.name == name.lowercased() }?.value }
}

/// What may never be stored or shown, whichever stand-in sees it.
enum Redaction {
    static let placeholder = "<redacted>"

    /// Field names (form, query or JSON key) whose values are credentials.
    static let secretFields: Set<String> = [
        "client_secret", "code", "code_verifier", "refresh_token", "access_token", "token", "id_token",
        "assertion", "password", "client_assertion", "subject_token",
    ]

    static let secretHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie", "set-cookie"]

    static func fields(_ fields: FormFields) -> [RecordedRequest.Field] {
        fields.fields.map { field in
            RecordedRequest.Field(name: field.name,
                                  value: secretFields.contains(field.name) ? placeholder : field.value)
        }
    }

    static func header(name: String, value: String) -> RecordedRequest.Field {
        RecordedRequest.Field(name: name, value: secretHeaders.contains(name) ? placeholder : value)
    }

    /// A JSON body with secret keys redacted at any depth; other text as is. Invalid JSON that
    /// mentions a secret key is dropped whole, since we cannot tell which part is the secret.
    static func body(_ text: String) -> String {
        guard let data = text.data(using: .utf8),
              let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        else {
            let mentionsSecret = secretFields.contains { text.contains($0) }
            return mentionsSecret ? placeholder : text
        }
        let redacted = redactJSON(object)
        guard let out = try? JSONSerialization.data(withJSONObject: redacted, options: [.sortedKeys, .fragmentsAllowed])
        else { return placeholder }
        return String(decoding: out, as: UTF8.self)
    }

    private static func redactJSON(_ value: Any) -> Any {
        if let object = value as? [String: Any] {
            var copy: [String: Any] = [:]
            for (key, inner) in object { copy[key] = secretFields.contains(key) ? placeholder : redactJSON(inner) }
            return copy
        }
        if let array = value as? [Any] { return array.map(redactJSON) }
        return value
    }
}

/// Keeps the requests one stand-in served, oldest first, up to a cap so a long sandbox session
/// cannot grow without bound.
/// Beside them it counts every request by API method (`RequestRecorder.method(of:)`), without a cap:
/// what a benchmark reads to measure requests per user (`GET /_fake/requests/counts`).
final class RequestRecorder: Sendable {
    private let requests = Mutex<(kept: [RecordedRequest], counts: [String: Int])>(([], [:]))
    private let capacity: Int

    init(capacity: Int = 10_000) { self.capacity = capacity }

    func append(_ request: RecordedRequest) {
        let method = Self.method(of: request.path)
        requests.withLock { requests in
            requests.kept.append(request)
            if requests.kept.count > capacity { requests.kept.removeFirst(requests.kept.count - capacity) }
            if let method { requests.counts[method, default: 0] += 1 }
        }
    }

    var all: [RecordedRequest] { requests.withLock { $0.kept } }

    /// Requests served since the start (or the last `removeAll`), by API method.
    var counts: [String: Int] { requests.withLock { $0.counts } }

    func removeAll() { requests.withLock { $0 = ([], [:]) } }

    /// The API method a path calls, ids left out: `gmail.history`, `gmail.messages`, `gmail.watch`,
    /// `calendar.events`, `oauth.token`, `apns.device`, …; nil for the control plane (`/_fake`).
    static func method(of path: String) -> String? {
        let parts = path.split(separator: "/").map(String.init)
        guard let first = parts.first, first != "_fake" else { return nil }
        switch first {
        case "gmail":  // /gmail/v1/users/{user}/{resource}/…
            return "gmail." + (parts.count > 4 ? parts[4] : "other")
        case "calendar":  // /calendar/v3/calendars/{id}/events or /calendar/v3/users/me/calendarList
            return "calendar." + (parts.last { ["events", "calendarList", "watch", "stop"].contains($0) } ?? "other")
        case "3":  // APNs: /3/device/{token}
            return "apns.device"
        default:
            return parts.count == 1 ? "oauth." + first : parts.joined(separator: ".").prefix(40).description
        }
    }
}
