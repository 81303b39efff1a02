import Foundation
import Hummingbird

/// The OpenAPI 3.1 document (the API's contract, `OpenAPI/openapi.json`, compiled in), served
/// at `GET /openapi.json`.
enum OpenAPIDocument {
    static let bytes: [UInt8] = PackageResources.openapi_json

    static var response: Response {
        var buffer = ByteBuffer()
        buffer.writeBytes(bytes)
        return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: buffer))
    }
}
