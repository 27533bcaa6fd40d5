import Foundation
import RxCore
import Testing

/// A decodable record with an optional field, as in RxSwift's decode tests.
private struct Person: Equatable, Codable {
    let id: Int
    let name: String
    let country: String?
}

/// A `DataDecoder` of our own: a line of comma-separated integers.
private struct CommaSeparatedDecoder: DataDecoder {
    struct NotIntegers: Error {}

    func decode<Item: Decodable>(_ type: Item.Type, from data: Data) throws -> Item {
        let numbers = String(decoding: data, as: UTF8.self).split(separator: ",").map { Int($0) }
        guard numbers.allSatisfy({ $0 != nil }), let result = numbers.compactMap({ $0 }) as? Item else {
            throw NotIntegers()
        }
        return result
    }
}

extension RxCoreTests {
    @Suite("decode(type:decoder:)")
    struct DecodeTests {
        @Test("Decode turns each Data element into the decoded value, optional fields included")
        func decodesValidJSON() {
            let json = Data(
                #"[{"id": 1, "name": "Ada", "country": "UK"}, {"id": 2, "name": "Grace"}]"#.utf8)
            let scheduler = TestScheduler(initialClock: 0)
            let observer = scheduler.start {
                Observable.just(json).decode(type: [Person].self, decoder: JSONDecoder())
            }
            #expect(
                observer.events == [
                    .next(
                        200,
                        [
                            Person(id: 1, name: "Ada", country: "UK"),
                            Person(id: 2, name: "Grace", country: nil),
                        ]),
                    .completed(200),
                ])
        }

        @Test("Invalid data fails the sequence with the decoder's DecodingError")
        func invalidJSONFails() {
            let scheduler = TestScheduler(initialClock: 0)
            let observer = scheduler.start {
                Observable.just(Data("[ {".utf8)).decode(type: [Person].self, decoder: JSONDecoder())
            }
            #expect(observer.events.count == 1)
            #expect(observer.events.first?.time == 200)
            #expect(observer.events.first?.value.error is DecodingError)
        }

        @Test("Each element is decoded on its own; the first failure ends the sequence")
        func decodesEachElement() {
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createHotObservable([
                .next(210, Data(#"{"id": 1, "name": "Ada"}"#.utf8)),
                .next(220, Data(#"{"id": "two"}"#.utf8)),
                .next(230, Data(#"{"id": 3, "name": "Edsger"}"#.utf8)),
            ])
            let observer = scheduler.start { source.decode(type: Person.self, decoder: JSONDecoder()) }
            #expect(observer.events.count == 2)
            #expect(observer.events.first == .next(210, Person(id: 1, name: "Ada", country: nil)))
            #expect(observer.events.last?.time == 220)
            #expect(observer.events.last?.value.error is DecodingError)
            #expect(source.subscriptions == [Subscription(200, 220)])
        }

        @Test("PropertyListDecoder is a DataDecoder too")
        func propertyListDecoder() throws {
            let person = Person(id: 7, name: "Barbara", country: "US")
            let data = try PropertyListEncoder().encode(person)
            let events = synchronousEvents(
                of: Observable.just(data).decode(type: Person.self, decoder: PropertyListDecoder()))
            #expect(events == [.next(person), .completed])
        }

        @Test("Any DataDecoder can decode, and its error is the sequence's error")
        func customDecoder() {
            let decoded = synchronousEvents(
                of: Observable.of(Data("1,2,3".utf8), Data("4,x".utf8))
                    .decode(type: [Int].self, decoder: CommaSeparatedDecoder()))
            #expect(decoded.first == .next([1, 2, 3]))
            #expect(decoded.count == 2)
            #expect(decoded.last?.error is CommaSeparatedDecoder.NotIntegers)
        }
    }
}
