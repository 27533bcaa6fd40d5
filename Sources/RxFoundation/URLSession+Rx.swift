import Foundation
import RxCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The errors of `URLSession.rx` (RxCocoa's `RxCocoaURLError`).
public enum RxCocoaURLError: Swift.Error, @unchecked Sendable {
    /// Unknown error.
    case unknown
    /// The response is not an HTTP response.
    case nonHTTPResponse(response: URLResponse)
    /// The response status is not in `200..<300`.
    case httpRequestFailed(response: HTTPURLResponse, data: Data?)
    /// The data could not be decoded.
    case deserializationError(error: Swift.Error)
}

extension Reactive where Base: URLSession {
    /// Performs `request` once per subscription and emits the HTTP response with its data, then
    /// completes; fails with the transport error, or with `RxCocoaURLError.nonHTTPResponse`.
    /// Disposing cancels the request.
    public func response(request: URLRequest) -> Observable<(response: HTTPURLResponse, data: Data)> {
        let session = base
        return Observable.create { observer in
            // The observer is used only by the task's completion handler, which runs once.
            let target = Sendability(observer)
            let task = session.dataTask(with: request) { data, response, error in
                guard let response, let data else {
                    target.value.on(.error(error ?? RxCocoaURLError.unknown))
                    return
                }
                guard let http = response as? HTTPURLResponse else {
                    target.value.on(.error(RxCocoaURLError.nonHTTPResponse(response: response)))
                    return
                }
                target.value.on(.next((http, data)))
                target.value.on(.completed)
            }
            task.resume()
            let running = Sendability(task)
            return Disposables.create { running.value.cancel() }
        }
    }

    /// The data of `request`'s response; fails with `RxCocoaURLError.httpRequestFailed` when the
    /// status is not in `200..<300`.
    public func data(request: URLRequest) -> Observable<Data> {
        response(request: request).map { pair -> Data in
            guard 200..<300 ~= pair.response.statusCode else {
                throw RxCocoaURLError.httpRequestFailed(response: pair.response, data: pair.data)
            }
            return pair.data
        }
    }

    /// The JSON object of `request`'s response (see `data(request:)`); fails with
    /// `RxCocoaURLError.deserializationError` when the data is not JSON.
    public func json(request: URLRequest, options: JSONSerialization.ReadingOptions = []) -> Observable<Any> {
        data(request: request).map { data -> Any in
            do {
                return try JSONSerialization.jsonObject(with: data, options: options)
            } catch {
                throw RxCocoaURLError.deserializationError(error: error)
            }
        }
    }

    /// The JSON object at `url` (a GET request; see `json(request:options:)`).
    public func json(url: URL) -> Observable<Any> {
        json(request: URLRequest(url: url))
    }
}
