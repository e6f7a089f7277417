// protoJson must give exactly toJson's JSON (reports, reproduce commands and patches show
// it), and must not touch the message it is given.

import { describe, expect, test } from "@jest/globals";
import { create, createFileRegistry, toBinary, toJson, type DescMessage, type Message } from "@bufbuild/protobuf";
import {
  FieldDescriptorProto_Label as Label,
  FieldDescriptorProto_Type as Type,
  FileDescriptorProtoSchema,
  file_google_protobuf_wrappers,
} from "@bufbuild/protobuf/wkt";
import { RawTransactionSchema } from "../../zcash/gen/walletrpc/service_pb.js";
import { protoJson } from "./proto-json.js";

/** Every place a bytes value can sit: plain, repeated, map value, oneof member, nested, and a BytesValue. */
function allShapes(): DescMessage {
  const entry = (name: string, value: { type: Type; typeName?: string }) => ({
    name,
    options: { mapEntry: true },
    field: [
      { name: "key", number: 1, label: Label.OPTIONAL, type: Type.STRING, jsonName: "key" },
      { name: "value", number: 2, label: Label.OPTIONAL, jsonName: "value", ...value },
    ],
  });
  const file = create(FileDescriptorProtoSchema, {
    name: "shapes.proto",
    package: "t",
    syntax: "proto3",
    dependency: ["google/protobuf/wrappers.proto"],
    messageType: [
      {
        name: "M",
        oneofDecl: [{ name: "pick" }],
        nestedType: [entry("ByKeyEntry", { type: Type.BYTES }), entry("KidsEntry", { type: Type.MESSAGE, typeName: ".t.M" })],
        field: [
          { name: "one", number: 1, label: Label.OPTIONAL, type: Type.BYTES, jsonName: "one" },
          { name: "many", number: 2, label: Label.REPEATED, type: Type.BYTES, jsonName: "many" },
          { name: "by_key", number: 3, label: Label.REPEATED, type: Type.MESSAGE, typeName: ".t.M.ByKeyEntry", jsonName: "byKey" },
          { name: "chosen", number: 4, label: Label.OPTIONAL, type: Type.BYTES, oneofIndex: 0, jsonName: "chosen" },
          { name: "other", number: 5, label: Label.OPTIONAL, type: Type.STRING, oneofIndex: 0, jsonName: "other" },
          { name: "child", number: 6, label: Label.OPTIONAL, type: Type.MESSAGE, typeName: ".t.M", jsonName: "child" },
          { name: "children", number: 7, label: Label.REPEATED, type: Type.MESSAGE, typeName: ".t.M", jsonName: "children" },
          { name: "kids", number: 8, label: Label.REPEATED, type: Type.MESSAGE, typeName: ".t.M.KidsEntry", jsonName: "kids" },
          { name: "wrapped", number: 9, label: Label.OPTIONAL, type: Type.MESSAGE, typeName: ".google.protobuf.BytesValue", jsonName: "wrapped" },
        ],
      },
    ],
  });
  return createFileRegistry(file, (name) => (name === "google/protobuf/wrappers.proto" ? file_google_protobuf_wrappers : undefined)).getMessage("t.M")!;
}

const b = (...xs: number[]) => new Uint8Array(xs);

describe("protoJson", () => {
  const M = allShapes();

  test.each([
    [
      "every shape filled",
      {
        one: b(1, 2, 3),
        many: [b(4), b(), b(5, 6)],
        byKey: { a: b(7), e: b() },
        pick: { case: "chosen", value: b(8, 9) },
        child: { one: b(10), children: [{ many: [b(11)] }] },
        kids: { k: { one: b(12), pick: { case: "chosen", value: b() } } },
        wrapped: b(13),
      },
    ],
    ["empty values, which toJson leaves out", { one: b(), many: [], pick: { case: "other", value: "x" }, child: {} }],
    ["nothing set", {}],
  ])("%s: the same JSON as toJson, and the message unchanged", (_, init) => {
    const msg = create(M, init as never) as Message;
    const wire = toBinary(M, msg);
    expect(protoJson(M, msg)).toEqual(toJson(M, msg));
    // Answers are written with every implicit field (grpc-json.ts): empty bytes fields then appear as "".
    expect(protoJson(M, msg, { alwaysEmitImplicit: true })).toEqual(toJson(M, msg, { alwaysEmitImplicit: true }));
    expect(toBinary(M, msg)).toEqual(wire);
  });

  test("the corpus's oversized transaction keeps its 2,000,001 bytes", () => {
    const msg = create(RawTransactionSchema, { data: new Uint8Array(2_000_001).fill(7), height: 5n });
    expect(protoJson(RawTransactionSchema, msg)).toEqual(toJson(RawTransactionSchema, msg));
    expect(msg.data.length).toBe(2_000_001);
  });
});
