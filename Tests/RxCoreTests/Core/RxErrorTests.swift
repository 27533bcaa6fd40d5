import RxCore
import Testing

extension RxCoreTests {
    @Suite("RxError")
    struct RxErrorTests {
        @Test("RxError cases describe themselves with RxSwift's wording")
        func descriptions() {
            #expect(RxError.unknown.debugDescription == "Unknown error occurred.")
            #expect(RxError.overflow.debugDescription == "Arithmetic overflow occurred.")
            #expect(RxError.argumentOutOfRange.debugDescription == "Argument out of range.")
            #expect(RxError.noElements.debugDescription == "Sequence doesn't contain any elements.")
            #expect(RxError.moreThanOneElement.debugDescription == "Sequence contains more than one element.")
            #expect(RxError.timeout.debugDescription == "Sequence timeout.")
            let subject = PublishSubject<Int>()
            #expect(RxError.disposed(object: subject).description.hasPrefix("Object `"))
            #expect(RxError.disposed(object: subject).description.hasSuffix("` was already disposed."))
        }
    }
}
