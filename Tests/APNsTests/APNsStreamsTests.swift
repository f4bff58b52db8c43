import Testing
@testable import APNs

/// Every way an APNs stream can end, as `APNsStreams` decides it: events in, actions out, no sockets.
/// Requests are strings, headers a dictionary, deadlines integers. What matters for exactly-once
/// delivery is the kind of each failure: `unprocessed` is resent at once, `inDoubt` only under the
/// push's collapse id, `notConnected` was never sent.
@Suite(.timeLimit(.minutes(5))) struct APNsStreamsTests {
    typealias Streams = APNsStreams<String, [String: String], Int>
    typealias Action = Streams.Action

    static let ok = ["apns-id": "A1"]

    /// A connected machine with `requests` started (stream ids 1, 3, 5, …), each written unless listed.
    static func active(_ requests: [String] = [], notWritten: Set<String> = [], deadline: Int = 100,
                       lastUsableStreamID: Int32 = Int32.max - 1024) -> Streams {
        var streams = Streams(lastUsableStreamID: lastUsableStreamID)
        #expect(streams.connected().isEmpty)
        for (index, request) in requests.enumerated() {
            let id = Int32(2 * index + 1)
            #expect(streams.submit(request, deadline: deadline) == [.write(streamID: id, request)])
            if !notWritten.contains(request) { streams.written(id) }
        }
        return streams
    }

    static func answer(_ request: String, _ status: Int, _ headers: [String: String] = ok, body: [UInt8] = []) -> Action {
        .answer(request, APNsAnswer(status: status, headers: headers, body: body))
    }

    // MARK: Answered

    @Test func aTwoHundredWithItsEndIsAnswered() {
        var streams = Self.active(["push"])
        #expect(streams.headers(1, status: 200, Self.ok, endStream: false).isEmpty)
        #expect(streams.data(1, [UInt8](), endStream: true) == [Self.answer("push", 200)])
        #expect(streams.inFlight == 0 && streams.isOpen)
    }

    @Test func headersThatEndTheStreamAnswerAtOnce() {
        var streams = Self.active(["push"])
        #expect(streams.headers(1, status: 200, Self.ok, endStream: true) == [Self.answer("push", 200)])
    }

    @Test func aRejectionCarriesItsBody() {
        var streams = Self.active(["push"])
        let body = Array(#"{"reason":"BadDeviceToken"}"#.utf8)
        _ = streams.headers(1, status: 400, Self.ok, endStream: false)
        _ = streams.data(1, body.prefix(10), endStream: false)
        #expect(streams.data(1, body.dropFirst(10), endStream: true) == [Self.answer("push", 400, body: body)])
    }

    @Test func anInterimStatusIsNotTheAnswer() {
        var streams = Self.active(["push"])
        _ = streams.headers(1, status: 100, ["interim": "yes"], endStream: false)
        _ = streams.headers(1, status: 410, ["apns-id": "A2"], endStream: false)
        #expect(streams.data(1, [UInt8](), endStream: true) == [Self.answer("push", 410, ["apns-id": "A2"])])
    }

    @Test func anEndWithoutAStatusIsInDoubt() {
        var streams = Self.active(["push"])
        #expect(streams.data(1, [1, 2, 3], endStream: true) == [.fail("push", .inDoubt("an answer without a status"))])
    }

    @Test func aBodyPastTheLimitIsCutNotGrown() {
        var streams = Self.active(["push"])
        _ = streams.headers(1, status: 400, Self.ok, endStream: false)
        let chunk = [UInt8](repeating: 7, count: Streams.maxBodyBytes)
        _ = streams.data(1, chunk, endStream: false)
        #expect(streams.data(1, [UInt8](repeating: 8, count: 10), endStream: true) == [Self.answer("push", 400, body: chunk)])
    }

    @Test func framesForUnknownStreamsChangeNothing() {
        var streams = Self.active(["push"])
        #expect(streams.headers(7, status: 200, Self.ok, endStream: true).isEmpty)
        #expect(streams.data(9, [1], endStream: true).isEmpty)
        #expect(streams.streamClosed(11, refused: false, reason: "cancel").isEmpty)
        #expect(streams.inFlight == 1)
    }

    @Test func answersMayComeInAnyOrder() {
        var streams = Self.active(["a", "b", "c"])
        #expect(streams.headers(5, status: 200, Self.ok, endStream: true) == [Self.answer("c", 200)])
        #expect(streams.headers(1, status: 200, Self.ok, endStream: true) == [Self.answer("a", 200)])
        #expect(streams.headers(3, status: 200, Self.ok, endStream: true) == [Self.answer("b", 200)])
    }

    // MARK: Reset

    @Test func aRequestThatNeverLeftIsUnprocessed() {
        var streams = Self.active(["push"], notWritten: ["push"])
        #expect(streams.writeFailed(1, reason: "ChannelError") == [.fail("push", .unprocessed("not written (ChannelError)"))])
    }

    @Test func aResetBeforeTheRequestLeftIsUnprocessed() {
        var streams = Self.active(["push"], notWritten: ["push"])
        #expect(streams.streamClosed(1, refused: false, reason: "cancel") == [.fail("push", .unprocessed("stream closed (cancel)"))])
    }

    @Test func aResetAfterTheRequestLeftIsInDoubt() {
        var streams = Self.active(["push"])
        #expect(streams.streamClosed(1, refused: false, reason: "internalError") == [.fail("push", .inDoubt("stream closed (internalError)"))])
    }

    @Test func refusedStreamIsUnprocessedEvenAfterItLeft() {
        var streams = Self.active(["push"])
        #expect(streams.streamClosed(1, refused: true, reason: "refusedStream") == [.fail("push", .unprocessed("REFUSED_STREAM"))])
    }

    @Test func aStreamErrorAfterTheRequestLeftIsInDoubt() {
        var streams = Self.active(["push"])
        #expect(streams.streamError(1, reason: "flowControlViolation") == [.fail("push", .inDoubt("stream error (flowControlViolation)"))])
    }

    @Test func aTwoHundredIsFinalWhateverHappensToTheRestOfTheStream() {
        var streams = Self.active(["push"])
        _ = streams.headers(1, status: 200, Self.ok, endStream: false)
        #expect(streams.streamClosed(1, refused: false, reason: "cancel") == [.answer("push", APNsAnswer(status: 200, headers: Self.ok, body: []))])
    }

    @Test func aRejectionCutShortIsInDoubt() {
        var streams = Self.active(["push"])
        _ = streams.headers(1, status: 400, Self.ok, endStream: false)
        #expect(streams.streamClosed(1, refused: false, reason: "cancel") == [.fail("push", .inDoubt("stream closed (cancel)"))])
    }

    // MARK: GOAWAY

    @Test func goAwayFailsTheStreamsAboveItsLastIdAsUnprocessedAndLetsTheOthersFinish() {
        var streams = Self.active(["a", "b", "c"])
        let actions = streams.goAway(lastStreamID: 1)
        #expect(actions == [.fail("b", .unprocessed("above the last stream id of the server's GOAWAY")),
                            .fail("c", .unprocessed("above the last stream id of the server's GOAWAY"))])
        #expect(!streams.isOpen)
        #expect(streams.submit("late", deadline: 100) == [.fail("late", .unprocessed("the connection is going away"))])
        // The stream at the last id is still answered, and then the connection closes.
        #expect(streams.headers(1, status: 200, Self.ok, endStream: true) == [Self.answer("a", 200), .closeConnection])
    }

    @Test func goAwayAboveEveryStreamFailsNoneAndClosesOnceTheyEnd() {
        var streams = Self.active(["a", "b"])
        #expect(streams.goAway(lastStreamID: 3).isEmpty)
        #expect(streams.streamClosed(1, refused: false, reason: "cancel") == [.fail("a", .inDoubt("stream closed (cancel)"))])
        #expect(streams.data(3, [UInt8](), endStream: true) == [.fail("b", .inDoubt("an answer without a status")), .closeConnection])
    }

    @Test func goAwayWithNothingInFlightClosesAtOnce() {
        var streams = Self.active()
        #expect(streams.goAway(lastStreamID: 0) == [.closeConnection])
    }

    @Test func aLaterGoAwayCanLowerTheLastIdButNotRaiseIt() {
        var streams = Self.active(["a", "b", "c"])
        #expect(streams.goAway(lastStreamID: 3) == [.fail("c", .unprocessed("above the last stream id of the server's GOAWAY"))])
        #expect(streams.phase == .goingAway(lastStreamID: 3))
        #expect(streams.goAway(lastStreamID: 5).isEmpty)
        #expect(streams.phase == .goingAway(lastStreamID: 3))
        #expect(streams.goAway(lastStreamID: 1) == [.fail("b", .unprocessed("above the last stream id of the server's GOAWAY"))])
        #expect(streams.phase == .goingAway(lastStreamID: 1))
    }

    // MARK: Timeout

    @Test func aWrittenRequestPastItsDeadlineIsInDoubtAndReset() {
        var streams = Self.active(["early"], deadline: 10)
        #expect(streams.submit("late", deadline: 20) == [.write(streamID: 3, "late")])
        streams.written(3)
        #expect(streams.expire(now: 9).isEmpty)
        #expect(streams.expire(now: 10) == [.fail("early", .inDoubt("no answer in time")), .reset(streamID: 1)])
        #expect(streams.isOpen, "an answer that is slow says nothing about the connection")
        #expect(streams.expire(now: 30) == [.fail("late", .inDoubt("no answer in time")), .reset(streamID: 3)])
    }

    @Test func aRequestNotEvenWrittenByItsDeadlineClosesTheStuckConnection() {
        var streams = Self.active(["stuck"], notWritten: ["stuck"], deadline: 10)
        let actions = streams.expire(now: 10)
        #expect(actions == [.fail("stuck", .unprocessed("no answer in time")), .reset(streamID: 1), .closeConnection])
        #expect(!streams.isOpen)
        #expect(streams.closeReason == "stalled: a request was not written before its deadline")
        #expect(streams.submit("next", deadline: 50) == [.fail("next", .unprocessed("the connection is going away"))])
    }

    @Test func aStreamAnsweredBeforeItsDeadlineIsNotExpired() {
        var streams = Self.active(["push"], deadline: 10)
        _ = streams.headers(1, status: 200, Self.ok, endStream: true)
        #expect(streams.expire(now: 50).isEmpty)
    }

    // MARK: Connection lost

    @Test func aLostConnectionLeavesWrittenRequestsInDoubtAndTheRestUnprocessed() {
        var streams = Self.active(["sent", "unsent", "answered-ok"], notWritten: ["unsent"])
        _ = streams.headers(5, status: 200, Self.ok, endStream: false)
        let reason = "connection closed (by the server)"
        #expect(streams.closed() == [.fail("sent", .inDoubt(reason)), .fail("unsent", .unprocessed(reason)),
                                     .answer("answered-ok", APNsAnswer(status: 200, headers: Self.ok, body: []))])
        #expect(streams.phase == .closed(reason))
        #expect(streams.submit("after", deadline: 100) == [.fail("after", .unprocessed(reason))])
    }

    @Test func ourOwnCloseReasonIsWhatCallersHear() {
        var streams = Self.active(["push"])
        #expect(streams.connectionError("NIOSSLError") == [.closeConnection])
        #expect(streams.closed() == [.fail("push", .inDoubt("connection closed (NIOSSLError)"))])
    }

    // MARK: Connecting

    @Test func requestsWaitForTheConnectionThenStartInOrder() {
        var streams = Streams()
        #expect(streams.submit("a", deadline: 100).isEmpty)
        #expect(streams.submit("b", deadline: 100).isEmpty)
        #expect(streams.isOpen)
        #expect(streams.connected() == [.write(streamID: 1, "a"), .write(streamID: 3, "b")])
    }

    @Test func aFailedConnectFailsWhatWaitedAsNotConnected() {
        var streams = Streams()
        _ = streams.submit("a", deadline: 100)
        #expect(streams.connectFailed("connection refused") == [.fail("a", .notConnected("connection refused"))])
        #expect(!streams.isOpen)
        #expect(streams.submit("b", deadline: 100) == [.fail("b", .notConnected("connection refused"))])
        #expect(streams.connected() == [.closeConnection], "a late connect is closed at once")
        #expect(streams.closed().isEmpty)
        #expect(streams.phase == .notConnected("connection refused"))
    }

    @Test func closingBeforeTheConnectionIsUpFailsWhatWaitedAsNotConnected() {
        var streams = Streams()
        _ = streams.submit("a", deadline: 100)
        #expect(streams.close("closed by this client") == [.fail("a", .notConnected("closed before it connected")), .closeConnection])
    }

    @Test func aServerThatWillNotSpeakHTTP2IsLeft() {
        var streams = Streams()
        _ = streams.submit("a", deadline: 100)
        #expect(streams.negotiated("h2").isEmpty)
        #expect(streams.negotiated("http/1.1") == [.closeConnection])
        #expect(streams.closed() == [.fail("a", .unprocessed("connection closed (the server did not agree to HTTP/2 (ALPN http/1.1))"))])
    }

    // MARK: Stream ids

    @Test func aConnectionOutOfStreamIdsRetiresAndClosesWhenIdle() {
        var streams = Self.active(["a", "b"], lastUsableStreamID: 3)
        #expect(streams.submit("c", deadline: 100) == [.fail("c", .unprocessed("the connection ran out of stream ids"))])
        #expect(!streams.isOpen)
        #expect(streams.headers(1, status: 200, Self.ok, endStream: true) == [Self.answer("a", 200)])
        #expect(streams.headers(3, status: 200, Self.ok, endStream: true) == [Self.answer("b", 200), .closeConnection])
    }

    /// Every request ends exactly once, whatever order the events come in: answered, failed, never both.
    @Test(arguments: 0..<40) func everyRequestEndsExactlyOnce(seed: Int) {
        var generator = SplitMix(seed: UInt64(seed))
        var streams = Streams()
        var ended: [String: Int] = [:]
        var submitted = 0
        func record(_ actions: [Action]) {
            for action in actions {
                switch action {
                case .answer(let request, _), .fail(let request, _): ended[request, default: 0] += 1
                case .write(let id, _): if generator.next() % 3 != 0 { streams.written(id) }
                default: break
                }
            }
        }
        for step in 0..<60 {
            let id = Int32(generator.next() % 20) | 1
            switch generator.next() % 10 {
            case 0, 1, 2: record(streams.submit("r\(submitted)", deadline: step + Int(generator.next() % 20))); submitted += 1
            case 3: record(streams.connected())
            case 4: record(streams.headers(id, status: [100, 200, 400, 410][Int(generator.next() % 4)], [:], endStream: generator.next() % 2 == 0))
            case 5: record(streams.data(id, [1], endStream: true))
            case 6: record(streams.streamClosed(id, refused: generator.next() % 2 == 0, reason: "cancel"))
            case 7: record(streams.goAway(lastStreamID: id))
            case 8: record(streams.expire(now: step))
            default: record(streams.writeFailed(id, reason: "x"))
            }
        }
        record(streams.closed())
        #expect(ended.count == submitted, "every request ended")
        #expect(ended.values.allSatisfy { $0 == 1 }, "none ended twice: \(ended.filter { $0.value > 1 })")
    }
}

/// A small deterministic generator for the event-order test (no dependency on the test kits).
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
