/// The trusted publisher keys built into the program: the text of
/// `packs/keys/trusted.json`. A test fails when the two differ; copy the file
/// here (between the delimiters) whenever a key is added, removed or the policy changes.
enum ShippedTrust {
    static let json = #"""
{
  "format": "ecodex-trust/1",
  "required_signatures": 2,
  "keys": [
    {"id":"a1c1fe856c5a8d0c","owner":"ecodex-publisher-1","public_key":"2174d602534fbb2da33a64aab62d55edbed2b4d452be68d524e9b1bcfaa44eb8"},
    {"id":"67f9ddcb032bdadb","owner":"ecodex-publisher-2","public_key":"1962ff7878fb00f0351b6a40b2bc61a84cd73e4ba9d0eb55169561e54adf0d67"}
  ]
}
"""#
}
