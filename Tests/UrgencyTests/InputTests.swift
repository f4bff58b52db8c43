import AlfredCore
import Foundation
import Testing
@testable import Urgency

@Suite(.timeLimit(.minutes(5))) struct AddressListTests {
    @Test func parsesRealHeaderShapes() {
        #expect(AddressList.addresses(in: #""Doe, Jane" <Jane@Example.com>, bob@example.org"#) == ["jane@example.com", "bob@example.org"])
        #expect(AddressList.addresses(in: "Henrik Vos <henrik@example.com>") == ["henrik@example.com"])
        #expect(AddressList.addresses(in: "  bare@example.net  ") == ["bare@example.net"])
        #expect(AddressList.addresses(in: #""Quote \" and, comma" <q@example.com>; other@example.com"#) == ["q@example.com", "other@example.com"])
        #expect(AddressList.addresses(in: "a@example.com (Alice, from work), b@example.com") == ["a@example.com", "b@example.com"])
        #expect(AddressList.addresses(in: "undisclosed-recipients:;").isEmpty)
        #expect(AddressList.addresses(in: "Team: a@example.com, B <b@example.com>;, c@example.com") == ["a@example.com", "b@example.com", "c@example.com"])
        #expect(AddressList.addresses(in: #""@not-an-address" <real@example.com>"#) == ["real@example.com"])
        #expect(AddressList.addresses(in: "") == [] && AddressList.addresses(in: nil) == [])
        #expect(AddressList.sender(in: #""Vos, Henrik" <HENRIK.VOS@northwind.example.com>"#) == "henrik.vos@northwind.example.com")
    }

    @Test func canonicalFormDropsSubaddresses() {
        #expect(AddressList.canonical("Mara+Receipts@Example.com") == "mara@example.com")
        #expect(AddressList.canonical("mara@example.com") == "mara@example.com")
    }
}

@Suite(.timeLimit(.minutes(5))) struct DecodingTests {
    @Test func toleratesWhatGmailSends() throws {
        // int64s as strings, unknown fields (partId, body, sizeEstimate …), lower-case header names.
        let json = #"""
        {"id":"19a0c0ffee000001","threadId":"19a0c0ffee000001","labelIds":["INBOX","IMPORTANT"],"historyId":"4811203",
         "internalDate":"1795246800000","sizeEstimate":5120,"unknownField":{"x":1},
         "payload":{"partId":"","mimeType":"multipart/alternative","filename":"","body":{"size":0},
                    "headers":[{"name":"subject","value":"DRINGEND: Rückruf"},{"name":"from","value":"a@example.com"}]}}
        """#
        let message = try JSONDecoder().decode(GmailMessage.self, from: Data(json.utf8))
        #expect(message.receivedAt == date("2026-11-21T07:40:00Z"))
        #expect(message.header("Subject") == "DRINGEND: Rückruf")
        #expect(UrgencyScorer().score(message, now: saturdayMorning).rules.map(\.id) == ["gmail_important", "urgency_word:de"])
    }

    @Test func scoresMessagesWithoutPayloadOrLabels() throws {
        let bare = try JSONDecoder().decode(GmailMessage.self, from: Data(#"{"id":"19a0c0ffee000002"}"#.utf8))
        let decision = UrgencyScorer(ruleSet: .standard, preferences: UrgencyPreferences(userAddresses: [me])).score(bare, now: saturdayMorning)
        #expect(!decision.urgent)
        #expect(decision.rules.map(\.id) == ["not_addressed"])
        let labelsOnly = try JSONDecoder().decode(GmailMessage.self, from: Data(#"{"id":"x","labelIds":["INBOX","STARRED"]}"#.utf8))
        #expect(UrgencyScorer().score(labelsOnly, now: saturdayMorning).rules.map(\.id) == ["gmail_starred"])
    }
}

@Suite(.timeLimit(.minutes(5))) struct RuleSetTests {
    func write(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rules-\(UUID().uuidString).json").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func theEmbeddedDefaultIsCompleteAndRoundTrips() throws {
        let standard = RuleSet.standard
        #expect(!standard.version.isEmpty)
        #expect(standard.quietHoursThreshold > standard.threshold)
        #expect(Set(standard.weights.keys) == Set(RuleID.allCases), "every rule has a weight")
        #expect(Set(standard.urgencyWords.map(\.language)).isSuperset(of: ["en", "de", "fr", "es", "it", "pt", "nl"]))
        for rule: RuleID in [.vipSender, .gmailImportant, .gmailStarred, .urgencyWord, .userKeyword, .directTo, .ownThreadReply, .inviteToday] {
            #expect(standard.weight(rule) > 0, "\(rule)")
        }
        for rule in RuleID.allCases where standard.weight(rule) <= 0 {
            #expect(standard.weight(rule) < 0, "\(rule) is a signal against urgency")
        }
        let encoded = try JSONEncoder().encode(standard)
        #expect(try RuleSet(json: encoded) == standard)
        #expect(try RuleSet(json: Data(RuleSet.standardJSON.utf8)) == standard)
    }

    @Test func loadsAnotherRuleSetFromAFile() throws {
        let path = try write(#"""
            {"version": "test.1", "threshold": 20, "quiet_hours_threshold": 50,
             "weights": {"urgency_word": 25, "list_unsubscribe": -10},
             "urgency_words": [{"language": "sv", "words": ["brådskande"]}]}
            """#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let rules = try RuleSet(contentsOfFile: path)
        #expect(rules.version == "test.1" && rules.weight(.vipSender) == 0)
        let decision = UrgencyScorer(ruleSet: rules, preferences: UrgencyPreferences(vipSenders: ["a@example.com"]))
            .score(message(["From": "a@example.com", "Subject": "BRADSKANDE"], labels: ["INBOX", "IMPORTANT"]), now: saturdayMorning)
        #expect(decision.rules == [FiredRule(id: "urgency_word:sv", weight: 25)], "rules left out never fire")
        #expect(decision.urgent && decision.ruleSetVersion == "test.1")
    }

    @Test(arguments: [
        (#"{"version":"x","threshold":60,"quiet_hours_threshold":90,"weights":{"vip_sendr":30}}"#, "unknown rule id 'vip_sendr'"),
        (#"{"version":"x","threshold":60,"quiet_hours_threshold":60,"weights":{}}"#, "quiet_hours_threshold (60) must be above threshold (60)"),
        (#"{"version":" ","threshold":60,"quiet_hours_threshold":90,"weights":{}}"#, "version is empty"),
        (#"{"version":"x","threshold":60,"weights":{}}"#, "missing field 'quiet_hours_threshold'"),
        (#"{"version":"x","threshold":"60","quiet_hours_threshold":90,"weights":{}}"#, "'threshold' is not a number"),
        (#"{"version":"x","threshold":60,"quiet_hours_threshold":90,"weights":{},"urgency_words":[{"language":"en","words":["!!"]}]}"#, "a word without letters"),
        ("{not json", "not valid JSON"),
    ])
    func rejectsBrokenFilesWithAClearReason(json: String, reason: String) throws {
        let path = try write(json)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = try #require(throws: RuleSetError.self) { try RuleSet(contentsOfFile: path) }
        #expect(error.description.contains(reason), "\(error)")
        #expect(error.description.contains(path))
    }

    @Test func aMissingFileIsUnreadable() throws {
        let error = try #require(throws: RuleSetError.self) { try RuleSet(contentsOfFile: "/nonexistent/rules.json") }
        #expect(error.code == .unreadable)
    }
}

@Suite(.timeLimit(.minutes(5))) struct PreferencesTests {
    @Test func decodesSnakeCaseWithDefaults() throws {
        let json = #"""
            {"vip_senders": ["boss@example.com", "@school.example.org"], "keywords": ["Lio"], "threshold": 55,
             "user_addresses": ["mara@example.com"], "own_thread_ids": ["t1"], "own_message_ids": ["<m@example.com>"],
             "time_zone": "Europe/Amsterdam", "now": "2026-11-21T09:40:00+01:00"}
            """#
        let preferences = try JSONDecoder().decode(UrgencyPreferences.self, from: Data(json.utf8))
        #expect(preferences.vipSenders == ["boss@example.com", "@school.example.org"])
        #expect(preferences.threshold == 55 && preferences.quietHoursThreshold == nil)
        #expect(preferences.timeZone.identifier == "Europe/Amsterdam")
        #expect(preferences.now == date("2026-11-21T08:40:00Z"))
        #expect(try JSONDecoder().decode(UrgencyPreferences.self, from: JSONEncoder().encode(preferences)) == preferences)

        #expect("\(preferences)" == "UrgencyPreferences(vip_senders: 2, keywords: 1, user_addresses: 1, own_threads: 1, own_messages: 1, time_zone: Europe/Amsterdam)")
        #expect(!String(reflecting: preferences).contains("@"))

        let empty = try JSONDecoder().decode(UrgencyPreferences.self, from: Data("{}".utf8))
        #expect(empty.timeZone.secondsFromGMT() == 0 && empty.now == nil && empty.vipSenders.isEmpty)
        #expect(try JSONDecoder().decode(UrgencyPreferences.self, from: Data(#"{"now":"2026-11-21T08:40:00.250Z"}"#.utf8)).now != nil)
    }

    @Test(arguments: [(#"{"time_zone": "Mars/Olympus"}"#, "not an IANA time zone"), (#"{"now": "yesterday"}"#, "not an RFC 3339"),
                      (#"{"keywords": "Lio"}"#, "'keywords' is not an array")])
    func rejectsBadValues(json: String, reason: String) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("prefs-\(UUID().uuidString).json").path
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = try #require(throws: PreferencesError.self) { try UrgencyPreferences(contentsOfFile: path) }
        #expect(error.description.contains(reason), "\(error)")
    }
}

@Suite(.timeLimit(.minutes(5))) struct PrivacyTests {
    /// Decisions may be logged: across the whole fixture set, no explanation carries a subject, an
    /// address, a user keyword, a VIP entry or any of the urgency words that matched.
    @Test func explanationsCarryRuleIDsAndNumbersOnly() throws {
        let preferences = try Fixtures.preferences()
        var scorer = UrgencyScorer(ruleSet: .standard, preferences: preferences)
        let words = RuleSet.standard.urgencyWords.flatMap(\.words).map(Text.fold)
        let personal = (preferences.keywords + preferences.vipSenders + preferences.userAddresses).map(Text.fold)
        for message in try Fixtures.messages() {
            scorer.learn(from: message)
            let decision = scorer.score(message, now: preferences.now!)
            let explanation = Text.fold(decision.description + String(decoding: try JSONEncoder().encode(decision), as: UTF8.self))
            #expect(!explanation.contains("@"))
            let subject = Text.fold(message.header("Subject") ?? "")
            if subject.count > 3 { #expect(!explanation.contains(subject), "\(message.id)") }
            // The variable part of an explanation is the rules and the version; the rest is fixed text.
            let variable = Text.fold(decision.rules.map(\.description).joined(separator: " ") + " " + decision.ruleSetVersion)
            for text in personal + words where variable.contains(text) {
                Issue.record("\(message.id): explanation contains '\(text)'")
            }
            for rule in decision.rules {
                let base = rule.id.split(separator: ":").first.map(String.init) ?? ""
                #expect(RuleID(rawValue: base) != nil || base == "suppressed", "\(rule.id) is a known rule id")
            }
        }
    }
}

@Suite(.timeLimit(.minutes(5))) struct MessageLinesTests {
    @Test func blankLinesAreSkippedAndBadOnesExplainedWithoutTheirContent() throws {
        #expect(try MessageLines.decode("   ") == nil)
        #expect(try MessageLines.decode(#"{"id":"a"}"#)?.id == "a")
        let notJSON = try #require(throws: MessageLineError.self) { try MessageLines.decode("Subject: secret plans") }
        #expect(notJSON.reason == "not valid JSON")
        let noID = try #require(throws: MessageLineError.self) { try MessageLines.decode(#"{"threadId":"secret-thread"}"#) }
        #expect(noID.reason == "missing field 'id'")
        let wrongType = try #require(throws: MessageLineError.self) {
            try MessageLines.decode(#"{"id":"a","payload":{"headers":[{"name":"Subject","value":7}]}}"#)
        }
        #expect(wrongType.reason == "'payload.headers.[0].value' is not a string")
    }

    @Test func encodesOneCompactLineWithKeysInOrder() {
        let decision = UrgencyDecision(urgent: true, score: 60, threshold: 60,
                                       rules: [FiredRule(id: "urgency_word:en", weight: 45), FiredRule(id: "direct_to", weight: 15)],
                                       ruleSetVersion: "2026-11-21.2")
        #expect(MessageLines.encode(decision, messageID: "19a0") ==
            #"{"id":"19a0","urgent":true,"score":60,"rules":[{"id":"urgency_word:en","weight":45},{"id":"direct_to","weight":15}],"rule_set_version":"2026-11-21.2"}"#)
        let odd = MessageLines.encode(UrgencyDecision(urgent: false, score: -5, threshold: 60, rules: [], ruleSetVersion: "v"),
                                      messageID: "a\"b\\c\nd\u{1}é")
        #expect(odd == #"{"id":"a\"b\\c\nd\u0001é","urgent":false,"score":-5,"rules":[],"rule_set_version":"v"}"#)
        let parsed = try? JSONSerialization.jsonObject(with: Data(odd.utf8)) as? [String: Any]
        #expect(parsed?["id"] as? String == "a\"b\\c\nd\u{1}é")
    }
}

@Suite(.timeLimit(.minutes(5))) struct RuleBoundsTests {
    @Test func weightsAndThresholdsOutsideTheBoundsAreRefusedNotOverflowed() throws {
        var rules = RuleSet.standard
        rules.weights[.vipSender] = 9_000_000_000_000_000_000
        let error = #expect(throws: RuleSetError.self) { try rules.validate() }
        #expect(error?.detail.contains("vip_sender") == true)
        let preferences = Data(#"{"threshold": 9000000000000000000}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(UrgencyPreferences.self, from: preferences) }
    }
}
