import Foundation

extension GoogleStandIn {
    /// An OAuth client registered with the fake Google: the Cloud console's "Web application" (a
    /// secret, https redirects) or "iOS" (no secret, a custom-scheme redirect, PKCE required).
    public struct Client: Sendable, Codable, Equatable {
        public enum Kind: String, Sendable, Codable { case web, ios }

        public var id: String
        /// nil for an iOS client, which has none: a secret sent for one is refused.
        public var secret: String?
        /// Compared exactly, as Google does: scheme, host, port, path, case and trailing slash.
        public var redirectURIs: [String]
        public var kind: Kind

        public init(id: String, secret: String, redirectURIs: [String]) {
            self.id = id
            self.secret = secret
            self.redirectURIs = redirectURIs
            kind = .web
        }

        /// An iOS client: Google derives its redirect scheme from the client id (reversed).
        public static func ios(id: String, redirectURIs: [String]) -> Client {
            var client = Client(id: id, secret: "", redirectURIs: redirectURIs)
            client.secret = nil
            client.kind = .ios
            return client
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(String.self, forKey: .id)
            secret = try container.decodeIfPresent(String.self, forKey: .secret)
            redirectURIs = try container.decode([String].self, forKey: .redirectURIs)
            kind = try container.decodeIfPresent(Kind.self, forKey: .kind) ?? .web
        }
    }

    /// A Google account that "signs in" on the authorization page, with its primary calendar and
    /// mailbox (see `SeedEvent` and `SeedMessage`). Only `subject` and `email` are required.
    public struct User: Sendable, Codable, Equatable {
        /// Google's stable account id (`sub`).
        public var subject: String
        public var email: String
        /// What this user consents to; nil grants everything requested. Models granular consent,
        /// where Google grants fewer scopes than asked for.
        public var grantedScopes: [String]?
        /// The calendar's IANA zone (`settings/timezone`, `timeZone` of event lists); nil means UTC.
        public var timeZone: String?
        /// Seeded on the primary calendar whenever the stand-in starts or resets; relative times
        /// count from the stand-in's clock at that moment.
        public var events: [SeedEvent]
        /// Seeded in the mailbox whenever the stand-in starts or resets.
        public var messages: [SeedMessage]

        public init(subject: String, email: String, grantedScopes: [String]? = nil, timeZone: String? = nil,
                    events: [SeedEvent] = [], messages: [SeedMessage] = []) {
            self.subject = subject
            self.email = email
            self.grantedScopes = grantedScopes
            self.timeZone = timeZone
            self.events = events
            self.messages = messages
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            subject = try container.decode(String.self, forKey: .subject)
            email = try container.decode(String.self, forKey: .email)
            grantedScopes = try container.decodeIfPresent([String].self, forKey: .grantedScopes)
            timeZone = try container.decodeIfPresent(String.self, forKey: .timeZone)
            events = try container.decodeIfPresent([SeedEvent].self, forKey: .events) ?? []
            messages = try container.decodeIfPresent([SeedMessage].self, forKey: .messages) ?? []
        }
    }

    /// What the user does on the consent screen.
    public enum ConsentDecision: String, Sendable, Codable {
        case approve
        /// Redirects back with `error=access_denied`.
        case deny
    }

    /// Token lifetimes, consent and the refresh-token death rules of external-apis §1.4.
    public struct OAuthSettings: Sendable, Codable, Equatable {
        /// `expires_in` of every access token. Google: 3599.
        public var accessTokenLifetimeSeconds: Int = 3599
        /// Authorization codes die this long after the redirect. Google: about 10 minutes.
        public var codeLifetimeSeconds: Int = 600
        /// A refresh token unused this long stops working. Google: six months.
        public var refreshTokenIdleSeconds: Int = 180 * 24 * 3600
        /// A refresh token dies this long after issue whatever its use; nil means never. Set 604800
        /// (7 days) to act like an app whose consent screen is in "Testing" publishing status.
        public var refreshTokenMaxAgeSeconds: Int?
        /// Live refresh tokens per client and user; issuing one more silently kills the oldest.
        public var refreshTokensPerUserLimit: Int = 100
        public var consent: ConsentDecision = .approve
        /// Reject authorization requests without `code_challenge`. Google does not require PKCE;
        /// Alfred always sends it, so the stand-in insists, to catch a client that stops.
        public var requirePKCE: Bool = true

        public init() {}

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let defaults = OAuthSettings()
            accessTokenLifetimeSeconds = try container.decodeIfPresent(Int.self, forKey: .accessTokenLifetimeSeconds)
                ?? defaults.accessTokenLifetimeSeconds
            codeLifetimeSeconds = try container.decodeIfPresent(Int.self, forKey: .codeLifetimeSeconds)
                ?? defaults.codeLifetimeSeconds
            refreshTokenIdleSeconds = try container.decodeIfPresent(Int.self, forKey: .refreshTokenIdleSeconds)
                ?? defaults.refreshTokenIdleSeconds
            refreshTokenMaxAgeSeconds = try container.decodeIfPresent(Int.self, forKey: .refreshTokenMaxAgeSeconds)
            refreshTokensPerUserLimit = try container.decodeIfPresent(Int.self, forKey: .refreshTokensPerUserLimit)
                ?? defaults.refreshTokensPerUserLimit
            consent = try container.decodeIfPresent(ConsentDecision.self, forKey: .consent) ?? defaults.consent
            requirePKCE = try container.decodeIfPresent(Bool.self, forKey: .requirePKCE) ?? defaults.requirePKCE
        }
    }

    /// Everything the fake Google starts from; `reset()` returns to it. Decodes from a scenario file
    /// where every key is optional:
    ///
    /// ```json
    /// { "host": "127.0.0.1", "port": 0,
    ///   "clients": [{ "id": "alfred-dev", "secret": "dev-secret",
    ///                 "redirectURIs": ["http://127.0.0.1:8080/oauth/google/callback"] }],
    ///   "users": [{ "subject": "100000000000000000001", "email": "ada@example.com",
    ///               "grantedScopes": ["https://www.googleapis.com/auth/calendar.readonly"],
    ///               "timeZone": "Europe/Zurich",
    ///               "events": [{ "id": "evt-board", "summary": "Board sync", "startInMinutes": 20,
    ///                            "durationMinutes": 30, "selfResponse": "accepted" }],
    ///               "messages": [{ "id": "m-001", "from": "Grace Hopper <grace@navy.example>",
    ///                              "subject": "Deploy?", "labelIds": ["INBOX", "UNREAD"], "arrivedMinutesAgo": 5 }] }],
    ///   "oauth": { "accessTokenLifetimeSeconds": 3599, "consent": "approve" },
    ///   "calendar": { "syncTokenLifetimeSeconds": 604800, "updatedMinHorizonSeconds": 2419200 },
    ///   "gmail": { "historyRetentionSeconds": 604800, "watchLifetimeSeconds": 604800 } }
    /// ```
    public struct Configuration: Sendable, Codable, Equatable {
        /// Loopback by default: the stand-in hands out tokens to whoever asks.
        public var host: String = "127.0.0.1"
        /// 0 lets the OS choose; read the result with `GoogleStandIn.port()`.
        public var port: Int = 0
        public var clients: [Client] = []
        /// The first user signs in unless `login_hint` names another by email or subject.
        public var users: [User] = []
        public var oauth: OAuthSettings = OAuthSettings()
        public var calendar: CalendarSettings = CalendarSettings()
        public var gmail: GmailSettings = GmailSettings()

        public init(host: String = "127.0.0.1", port: Int = 0, clients: [Client] = [], users: [User] = [],
                    oauth: OAuthSettings = OAuthSettings(), calendar: CalendarSettings = CalendarSettings(),
                    gmail: GmailSettings = GmailSettings()) {
            self.host = host
            self.port = port
            self.clients = clients
            self.users = users
            self.oauth = oauth
            self.calendar = calendar
            self.gmail = gmail
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            host = try container.decodeIfPresent(String.self, forKey: .host) ?? "127.0.0.1"
            port = try container.decodeIfPresent(Int.self, forKey: .port) ?? 0
            clients = try container.decodeIfPresent([Client].self, forKey: .clients) ?? []
            users = try container.decodeIfPresent([User].self, forKey: .users) ?? []
            oauth = try container.decodeIfPresent(OAuthSettings.self, forKey: .oauth) ?? OAuthSettings()
            calendar = try container.decodeIfPresent(CalendarSettings.self, forKey: .calendar) ?? CalendarSettings()
            gmail = try container.decodeIfPresent(GmailSettings.self, forKey: .gmail) ?? GmailSettings()
        }

        /// Reads a scenario file (the JSON shape above).
        public init(scenarioFile path: String) throws(StandInError) {
            let data: Data
            do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
                throw StandInError(.invalidScenario, "cannot read scenario file \(path): \(error.localizedDescription)")
            }
            do { self = try JSONDecoder().decode(Configuration.self, from: data) } catch {
                throw StandInError(.invalidScenario,
                                   "scenario file \(path) is not a valid Google stand-in configuration: \(error)")
            }
            let problems = GoogleStandIn.seedProblems(self)
            guard problems.isEmpty else {
                throw StandInError(.invalidScenario, "scenario file \(path): \(problems.joined(separator: "; "))")
            }
        }
    }
}
