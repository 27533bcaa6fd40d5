import Foundation

/// A decoder of `Decodable` values from `Data` (`JSONDecoder`, `PropertyListDecoder`), for
/// `decode(type:decoder:)`.
public protocol DataDecoder {
    /// Decodes a value of `type` from `data`.
    func decode<Item: Decodable>(_ type: Item.Type, from data: Data) throws -> Item
}

extension JSONDecoder: DataDecoder {}
extension PropertyListDecoder: DataDecoder {}

extension ObservableType where Element == Data {
    /// Decodes each element as a `type` with `decoder`; fails with the decoder's error.
    public func decode<Item: Decodable, Decoder: DataDecoder>(type: Item.Type, decoder: Decoder)
        -> Observable<Item>
    {
        map { try decoder.decode(type, from: $0) }
    }
}
