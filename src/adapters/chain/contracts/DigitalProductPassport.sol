// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {IERC721Errors} from "@openzeppelin/contracts/interfaces/draft-IERC6093.sol";
import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";
import {IERC721Metadata} from "@openzeppelin/contracts/token/ERC721/extensions/IERC721Metadata.sol";
import {ERC721Utils} from "@openzeppelin/contracts/token/ERC721/utils/ERC721Utils.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";
import {Strings} from "@openzeppelin/contracts/utils/Strings.sol";
import {IERC165} from "@openzeppelin/contracts/utils/introspection/IERC165.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";

/// @title Digital Product Passport
/// @notice One ERC-721 token per physical item, bound to the hash of its NFC chip UID.
/// Roles: DEFAULT_ADMIN_ROLE is the platform admin (claims, recycling, role management);
/// MINTER_ROLE is the platform minter (minting, supply-chain events, recycling).
/// The platform relays every call: owners and buyers never need gas.
///
/// Storage layout (gas): what a passport never changes after its mint (chip hash, first owner, deposit,
/// metadata URI) is written once per mint transaction as the code of a data contract ("record", 200 gas a
/// byte instead of 22,100 gas a 32-byte storage slot). State per passport is one slot of `_tokenOfChip`
/// (the chip stays unique on chain) and a 48-bit index entry (record number and byte offset, five to a
/// slot). The owner is stored only once a token moved; balances, counters and the record's slot (data
/// address and mint block) are written once per transaction. A `mintBatch` of n passports therefore pays
/// the per-transaction part once, where n single mints pay it n times. A single mint is a record of one.
///
/// `mintRange` goes further for passports of one owner under consecutive ids: no index entry per passport
/// (one range entry and one bit per range instead), one ERC-2309 `ConsecutiveTransfer` and one `RangeMinted`
/// for the range, the owner, deposit and base URI written once (tokenURI = base URI + token id). What stays per
/// passport is the floor of the guarantees: the chip's slot (22,100 gas) and its 32-byte hash in the record.
contract DigitalProductPassport is IERC721, IERC721Metadata, IERC721Errors, AccessControl, ReentrancyGuard {
    bytes32 public constant MINTER_ROLE = keccak256("MINTER_ROLE");

    /// @notice One passport of a `mintBatch`.
    struct MintOrder {
        address to;
        uint256 tokenId;
        string metadataUri;
        bytes32 chipHash;
        uint256 deposit;
    }

    /// Record layout (code of the data contract): byte 0 is 0x00 (STOP: the data contract cannot run), byte 1
    /// the flags below, then the owner (20 bytes) unless OWNER_PER_PASSPORT, then the deposit (12 bytes)
    /// unless DEPOSIT_PER_PASSPORT, then per passport: chip hash (32), [owner (20)], [deposit (12)], URI length
    /// (2), URI bytes.
    uint256 private constant OWNER_PER_PASSPORT = 1;
    uint256 private constant DEPOSIT_PER_PASSPORT = 2;
    /// A range record (mintRange): STOP, flags, owner (20), deposit (12), count (2), the chip hashes (32 each,
    /// in token order), then the base URI up to the end of the code.
    uint256 private constant RANGE = 4;
    uint256 private constant RANGE_HEADER = 36;
    /// The longest range: its first token is then at most 255 ids below any of its tokens (two bitmap words).
    uint256 private constant MAX_RANGE = 256;
    /// EIP-170: the largest contract code.
    uint256 private constant MAX_RECORD_SIZE = 24_576;
    /// init code that returns the bytes following it as the new contract's code (10 bytes):
    /// PUSH2 size, DUP1, PUSH1 10, RETURNDATASIZE, CODECOPY, RETURNDATASIZE, RETURN.
    uint256 private constant INIT_CODE = 0x61000080600a3d393df3;
    uint256 private constant INIT_CODE_SIZE = 10;
    uint256 private constant ENTRY_BITS = 48;
    uint256 private constant ENTRIES_PER_SLOT = 5;

    string private constant NAME = "Digital Product Passport";
    string private constant SYMBOL = "DPP";

    /// lastTokenId (64 bits) | mintedCount (64) << 64 | recordCount (64) << 128.
    uint256 private _counters;
    /// Record number (1, 2, ...) → data contract address (160 bits) | mint block (64) << 160.
    mapping(uint256 recordNo => uint256) private _records;
    /// tokenId / 5 → five 48-bit entries, entry (tokenId % 5): recordNo << 16 | byte offset of the passport in
    /// its record. Zero: no such token.
    mapping(uint256 slot => uint256) private _index;
    mapping(bytes32 chipHash => uint256 tokenId) private _tokenOfChip;
    /// Owner of a token that moved since its mint (otherwise the record names it).
    mapping(uint256 tokenId => address) private _movedOwner;
    mapping(address owner => uint256) private _balances;
    mapping(uint256 tokenId => address) private _tokenApprovals;
    mapping(address owner => mapping(address operator => bool)) private _operatorApprovals;
    mapping(uint256 tokenId => address) private _claimants;
    /// tokenId / 256 → bit (tokenId % 256) set once recycled (the deposit is then paid out).
    mapping(uint256 word => uint256) private _recycled;
    /// tokenId / 256 → bit (tokenId % 256) set at the first token of each range.
    mapping(uint256 word => uint256) private _rangeStarts;
    /// First token of a range → its data contract (160 bits) | mint block (64) << 160 | number of tokens (16) << 224
    /// (the `_records` layout plus the count; a range takes no record number).
    mapping(uint256 firstTokenId => uint256) private _ranges;

    event Minted(
        uint256 indexed tokenId, address indexed owner, bytes32 indexed chipHash, string metadataUri, uint256 deposit
    );
    event SupplyChainEvent(uint256 indexed tokenId, string action, bytes32 dataHash, address indexed actor);
    event ClaimAuthorized(uint256 indexed tokenId, address indexed account, address indexed currentOwner);
    event ClaimRevoked(uint256 indexed tokenId, address indexed account);
    event OwnershipClaimed(uint256 indexed tokenId, address indexed from, address indexed to);
    event Recycled(uint256 indexed tokenId, address indexed rewardReceiver, uint256 amount);
    /// ERC-2309: tokens fromTokenId..toTokenId (inclusive) moved together (here: minted to `toAddress`).
    event ConsecutiveTransfer(
        uint256 indexed fromTokenId, uint256 toTokenId, address indexed fromAddress, address indexed toAddress
    );
    /// A `mintRange`: tokens firstTokenId..lastTokenId to `owner`, each with `deposit` locked; a token's URI is
    /// `baseUri` followed by its id in decimal, its chip hash is `chipHashOf`.
    event RangeMinted(
        uint256 indexed firstTokenId, uint256 lastTokenId, address indexed owner, string baseUri, uint256 deposit
    );
    /// A passport version with no token of its own (a model or batch passport): its subject and its hashes.
    event VersionAnchored(bytes32 indexed subject, bytes32 dataHash, bytes32 publicDataHash);

    error ZeroAddress();
    error InvalidChipHash();
    error EmptyMetadataUri();
    error EmptyAction();
    error EmptySubject();
    error ChipAlreadyMinted(bytes32 chipHash, uint256 tokenId);
    error InvalidTokenId(uint256 tokenId);
    error TokenAlreadyMinted(uint256 tokenId);
    error UnknownToken(uint256 tokenId);
    error TokenIsRecycled(uint256 tokenId);
    error AlreadyRecycled(uint256 tokenId);
    error NoClaimAuthorized(uint256 tokenId);
    error NotAuthorizedClaimant(uint256 tokenId, address account);
    error NotMinterOrAdmin(address account);
    error DepositTransferFailed(uint256 tokenId, address rewardReceiver, uint256 amount);
    error EmptyBatch();
    error DepositMismatch(uint256 ordered, uint256 sent);
    /// A deposit above 2^96 - 1 wei (79 billion ether).
    error DepositTooLarge(uint256 deposit);
    /// The passports of one transaction do not fit in one record (24,576 bytes): send fewer at once.
    error MintDataTooLarge(uint256 size);
    error RecordNotWritten();
    /// A range must hold 1 to 256 tokens, all above every token id minted so far and within 64 bits.
    error InvalidRange(uint256 firstTokenId, uint256 count);

    modifier onlyMinterOrAdmin() {
        if (!hasRole(MINTER_ROLE, msg.sender) && !hasRole(DEFAULT_ADMIN_ROLE, msg.sender)) {
            revert NotMinterOrAdmin(msg.sender);
        }
        _;
    }

    modifier activeToken(uint256 tokenId) {
        if (!_exists(tokenId)) revert UnknownToken(tokenId);
        if (_isRecycled(tokenId)) revert TokenIsRecycled(tokenId);
        _;
    }

    modifier existingToken(uint256 tokenId) {
        if (!_exists(tokenId)) revert UnknownToken(tokenId);
        _;
    }

    constructor(address admin, address minter) {
        if (admin == address(0) || minter == address(0)) revert ZeroAddress();
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
        _grantRole(MINTER_ROLE, minter);
    }

    // ---- minting ----

    /// @notice Mints the passport of one chip under the next token id (1, 2, 3, ... unless ids were
    /// chosen with `mintWithId`: then one above the highest id so far). `msg.value` is locked as the
    /// circular deposit (zero is allowed: not every product carries one) until `recycle` releases it.
    function mint(address to, string calldata metadataUri, bytes32 chipHash)
        external
        payable
        onlyRole(MINTER_ROLE)
        returns (uint256 tokenId)
    {
        tokenId = uint64(_counters) + 1;
        _mintOne(to, tokenId, metadataUri, chipHash);
    }

    /// @notice Like `mint`, under a token id the platform reserved beforehand (so that the metadata can
    /// name it). Ids are positive, fit in 64 bits and are used once.
    function mintWithId(address to, uint256 tokenId, string calldata metadataUri, bytes32 chipHash)
        external
        payable
        onlyRole(MINTER_ROLE)
    {
        _mintOne(to, tokenId, metadataUri, chipHash);
    }

    /// @notice Several `mintWithId`s in one transaction, all or none: each order's deposit is locked for
    /// its token and `msg.value` must be their sum. Every passport emits its own `Transfer` and `Minted`.
    function mintBatch(MintOrder[] calldata orders) external payable onlyRole(MINTER_ROLE) {
        uint256 count = orders.length;
        if (count == 0) revert EmptyBatch();
        // First pass: what the orders share (stored once in the record's header) and the record's size.
        address owner = orders[0].to;
        uint256 flags;
        uint256 size;
        for (uint256 i = 0; i < count; ++i) {
            if (orders[i].to != owner) flags |= OWNER_PER_PASSPORT;
            if (orders[i].deposit != orders[0].deposit) flags |= DEPOSIT_PER_PASSPORT;
            size += 34 + bytes(orders[i].metadataUri).length;
        }
        size += 2 + count * _perPassportFields(flags) + (flags & OWNER_PER_PASSPORT != 0 ? 0 : 20)
            + (flags & DEPOSIT_PER_PASSPORT != 0 ? 0 : 12);
        Draft memory draft = _openRecord(size, flags, owner, orders[0].deposit);
        uint256 ordered;
        for (uint256 i = 0; i < count; ++i) {
            ordered += _addOrder(draft, orders[i]);
        }
        if (ordered != msg.value) revert DepositMismatch(ordered, msg.value);
        if (flags & OWNER_PER_PASSPORT == 0) _balances[owner] += count;
        _closeRecord(draft, count);
    }

    /// @notice Mints one passport per chip hash to `to` under the consecutive ids `firstTokenId`, ... (at most
    /// 256, all above every id minted so far), each with `deposit` locked (`msg.value` = deposit x count), all
    /// or none. Emits one ERC-2309 `ConsecutiveTransfer` and one `RangeMinted` (no per-token Transfer/Minted).
    function mintRange(
        address to,
        uint256 firstTokenId,
        bytes32[] calldata chipHashes,
        uint256 deposit,
        string calldata baseUri
    ) external payable onlyRole(MINTER_ROLE) {
        uint256 count = chipHashes.length;
        if (to == address(0)) revert ERC721InvalidReceiver(address(0));
        if (bytes(baseUri).length == 0) revert EmptyMetadataUri();
        if (_deposit96(deposit) * count != msg.value) revert DepositMismatch(deposit * count, msg.value);
        Draft memory draft = _openRecord(RANGE_HEADER + 32 * count + bytes(baseUri).length, RANGE, to, deposit);
        if (count == 0 || count > MAX_RANGE || firstTokenId <= draft.lastTokenId) {
            revert InvalidRange(firstTokenId, count);
        }
        uint256 last = firstTokenId + count - 1;
        if (last > type(uint64).max) revert InvalidRange(firstTokenId, count);
        uint256 cursor = _put(draft.cursor, count << 240, 2);
        assembly ("memory-safe") {
            calldatacopy(cursor, chipHashes.offset, mul(count, 32))
            calldatacopy(add(cursor, mul(count, 32)), baseUri.offset, baseUri.length)
        }
        for (uint256 i = 0; i < count; ++i) {
            bytes32 chipHash = chipHashes[i];
            if (chipHash == bytes32(0)) revert InvalidChipHash();
            uint256 existing = _tokenOfChip[chipHash];
            if (existing != 0) revert ChipAlreadyMinted(chipHash, existing);
            _tokenOfChip[chipHash] = firstTokenId + i;
        }
        _ranges[firstTokenId] = uint256(uint160(_deploy(draft.code))) | (block.number << 160) | (count << 224);
        _rangeStarts[firstTokenId >> 8] |= 1 << (firstTokenId & 0xff);
        _balances[to] += count;
        draft.lastTokenId = last;
        _count(draft, count, draft.recordNo - 1);
        emit ConsecutiveTransfer(firstTokenId, last, address(0), to);
        emit RangeMinted(firstTokenId, last, to, baseUri, deposit);
    }

    /// A record being written: counters read once, its number, its code in memory and the write cursor.
    struct Draft {
        uint256 counters;
        uint256 recordNo;
        bytes code;
        uint256 cursor;
        uint256 flags;
        uint256 lastTokenId;
    }

    function _addOrder(Draft memory draft, MintOrder calldata order) private returns (uint256 deposit) {
        deposit = order.deposit;
        _checkAndIndex(order.to, order.tokenId, order.metadataUri, order.chipHash, draft);
        draft.cursor = _writePassport(draft.cursor, draft.flags, order.to, order.metadataUri, order.chipHash, deposit);
        if (order.tokenId > draft.lastTokenId) draft.lastTokenId = order.tokenId;
        if (draft.flags & OWNER_PER_PASSPORT != 0) _balances[order.to] += 1;
        // Every passport's Transfer then Minted, in order (indexers read them per token).
        emit Transfer(address(0), order.to, order.tokenId);
        emit Minted(order.tokenId, order.to, order.chipHash, order.metadataUri, deposit);
    }

    function _mintOne(address to, uint256 tokenId, string calldata metadataUri, bytes32 chipHash) private {
        Draft memory draft = _openRecord(2 + 20 + 12 + 34 + bytes(metadataUri).length, 0, to, msg.value);
        _checkAndIndex(to, tokenId, metadataUri, chipHash, draft);
        _writePassport(draft.cursor, 0, to, metadataUri, chipHash, msg.value);
        if (tokenId > draft.lastTokenId) draft.lastTokenId = tokenId;
        _balances[to] += 1;
        _closeRecord(draft, 1);
        emit Transfer(address(0), to, tokenId);
        emit Minted(tokenId, to, chipHash, metadataUri, msg.value);
    }

    /// The checks of one passport (in the order mintWithId always made them), its chip and index entries.
    function _checkAndIndex(
        address to,
        uint256 tokenId,
        string calldata metadataUri,
        bytes32 chipHash,
        Draft memory draft
    ) private {
        if (tokenId == 0 || tokenId > type(uint64).max) revert InvalidTokenId(tokenId);
        uint256 slot = tokenId / ENTRIES_PER_SLOT;
        uint256 shift = (tokenId % ENTRIES_PER_SLOT) * ENTRY_BITS;
        uint256 word = _index[slot];
        if ((word >> shift) & 0xffffffffffff != 0) revert TokenAlreadyMinted(tokenId);
        // ranges lie above every id minted before them: only an id below the highest can be in one
        if (tokenId <= uint64(draft.counters) && _inRange(tokenId)) revert TokenAlreadyMinted(tokenId);
        if (chipHash == bytes32(0)) revert InvalidChipHash();
        if (bytes(metadataUri).length == 0) revert EmptyMetadataUri();
        uint256 existing = _tokenOfChip[chipHash];
        if (existing != 0) revert ChipAlreadyMinted(chipHash, existing);
        if (to == address(0)) revert ERC721InvalidReceiver(address(0));
        _tokenOfChip[chipHash] = tokenId;
        uint256 offset = draft.cursor - _codeStart(draft.code);
        _index[slot] = word | (((draft.recordNo << 16) | offset) << shift);
    }

    /// Allocates the record (init code + data) in memory and writes its header.
    function _openRecord(uint256 size, uint256 flags, address owner, uint256 deposit)
        private
        view
        returns (Draft memory draft)
    {
        if (size > MAX_RECORD_SIZE) revert MintDataTooLarge(size);
        draft.counters = _counters;
        draft.recordNo = uint64(draft.counters >> 128) + 1;
        draft.lastTokenId = uint64(draft.counters);
        draft.flags = flags;
        // 32 bytes of slack: every write below stores a whole word.
        bytes memory code = new bytes(INIT_CODE_SIZE + size + 32);
        uint256 cursor;
        assembly ("memory-safe") {
            mstore(code, add(INIT_CODE_SIZE, size))
            cursor := add(code, 32)
            // the init code with the record's size in its PUSH2, then the STOP byte and the flags
            mstore(cursor, shl(176, or(INIT_CODE, shl(56, size))))
            mstore8(add(cursor, 10), 0)
            mstore8(add(cursor, 11), flags)
            cursor := add(cursor, 12)
        }
        if (flags & OWNER_PER_PASSPORT == 0) cursor = _put(cursor, uint256(uint160(owner)) << 96, 20);
        if (flags & DEPOSIT_PER_PASSPORT == 0) cursor = _put(cursor, _deposit96(deposit) << 160, 12);
        draft.code = code;
        draft.cursor = cursor;
    }

    function _writePassport(
        uint256 cursor,
        uint256 flags,
        address to,
        string calldata metadataUri,
        bytes32 chipHash,
        uint256 deposit
    ) private pure returns (uint256) {
        cursor = _put(cursor, uint256(chipHash), 32);
        if (flags & OWNER_PER_PASSPORT != 0) cursor = _put(cursor, uint256(uint160(to)) << 96, 20);
        if (flags & DEPOSIT_PER_PASSPORT != 0) cursor = _put(cursor, _deposit96(deposit) << 160, 12);
        uint256 length = bytes(metadataUri).length;
        cursor = _put(cursor, length << 240, 2);
        assembly ("memory-safe") {
            calldatacopy(cursor, metadataUri.offset, length)
            cursor := add(cursor, length)
        }
        return cursor;
    }

    /// Deploys the record as a data contract and stores its address and block under the next record number.
    function _closeRecord(Draft memory draft, uint256 count) private {
        _records[draft.recordNo] = uint256(uint160(_deploy(draft.code))) | (block.number << 160);
        _count(draft, count, draft.recordNo);
    }

    function _deploy(bytes memory code) private returns (address data) {
        assembly ("memory-safe") {
            data := create(0, add(code, 32), mload(code))
        }
        if (data == address(0)) revert RecordNotWritten();
    }

    /// Stores the counters after `count` more passports (`draft.lastTokenId` the highest id now).
    function _count(Draft memory draft, uint256 count, uint256 recordCount) private {
        uint256 minted = uint64(draft.counters >> 64) + count;
        _counters = draft.lastTokenId | (minted << 64) | (recordCount << 128);
    }

    // ---- supply chain, claims, recycling ----

    function logEvent(uint256 tokenId, string calldata action, bytes32 dataHash)
        external
        onlyMinterOrAdmin
        activeToken(tokenId)
    {
        if (bytes(action).length == 0) revert EmptyAction();
        emit SupplyChainEvent(tokenId, action, dataHash, msg.sender);
    }

    /// @notice Anchors one version of a passport that has no token (model, batch): an event only, no storage.
    /// `subject` names the version (keccak256 of "{dppId}/versions/{number}"), the hashes are its SHA-256s.
    function anchorVersion(bytes32 subject, bytes32 dataHash, bytes32 publicDataHash) external onlyMinterOrAdmin {
        if (subject == bytes32(0)) revert EmptySubject();
        emit VersionAnchored(subject, dataHash, publicDataHash);
    }

    /// @notice Allows `account` to take the token over from its current owner (resale).
    /// A new authorization replaces the previous one; any transfer clears it.
    function authorizeClaim(uint256 tokenId, address account)
        external
        onlyRole(DEFAULT_ADMIN_ROLE)
        activeToken(tokenId)
    {
        if (account == address(0)) revert ZeroAddress();
        _claimants[tokenId] = account;
        emit ClaimAuthorized(tokenId, account, ownerOf(tokenId));
    }

    function revokeClaim(uint256 tokenId) external onlyRole(DEFAULT_ADMIN_ROLE) existingToken(tokenId) {
        address account = _claimants[tokenId];
        if (account == address(0)) revert NoClaimAuthorized(tokenId);
        delete _claimants[tokenId];
        emit ClaimRevoked(tokenId, account);
    }

    /// @notice Called by the authorized account itself (if it has gas).
    function claimOwnership(uint256 tokenId) external {
        _claim(tokenId, msg.sender);
    }

    /// @notice The admin relays the claim of a gasless buyer; the token can only go to the
    /// account named in `authorizeClaim`, never elsewhere.
    function claimOwnershipFor(uint256 tokenId, address account) external onlyRole(DEFAULT_ADMIN_ROLE) {
        _claim(tokenId, account);
    }

    /// @notice Marks the item recycled and pays its deposit to `rewardReceiver`, exactly once.
    /// The token stays (its history remains readable) but is frozen.
    function recycle(uint256 tokenId, address payable rewardReceiver)
        external
        onlyMinterOrAdmin
        existingToken(tokenId)
        nonReentrant
    {
        if (_isRecycled(tokenId)) revert AlreadyRecycled(tokenId);
        if (rewardReceiver == address(0)) revert ZeroAddress();
        uint256 amount = _recordedDeposit(tokenId);
        _recycled[tokenId >> 8] |= 1 << (tokenId & 0xff);
        delete _claimants[tokenId];
        emit Recycled(tokenId, rewardReceiver, amount);
        if (amount > 0) {
            (bool sent,) = rewardReceiver.call{value: amount}("");
            if (!sent) revert DepositTransferFailed(tokenId, rewardReceiver, amount);
        }
    }

    // ---- passport views ----

    function tokenOfChip(bytes32 chipHash) external view returns (uint256) {
        return _tokenOfChip[chipHash];
    }

    function chipHashOf(uint256 tokenId) external view existingToken(tokenId) returns (bytes32) {
        (address data, uint256 offset,) = _locate(tokenId);
        return bytes32(_word(data, offset));
    }

    /// @return The deposit still locked for the token (zero once recycled: it was paid out).
    function depositOf(uint256 tokenId) external view existingToken(tokenId) returns (uint256) {
        return _isRecycled(tokenId) ? 0 : _recordedDeposit(tokenId);
    }

    function isRecycled(uint256 tokenId) external view existingToken(tokenId) returns (bool) {
        return _isRecycled(tokenId);
    }

    /// @return The account allowed to claim the token, or the zero address.
    function claimantOf(uint256 tokenId) external view existingToken(tokenId) returns (address) {
        return _claimants[tokenId];
    }

    /// @notice Block of the mint: its Minted event (and transaction) can be read from that one block.
    function mintBlockOf(uint256 tokenId) external view existingToken(tokenId) returns (uint256) {
        (uint256 record,) = _find(tokenId);
        return uint64(record >> 160);
    }

    function totalMinted() external view returns (uint256) {
        return uint64(_counters >> 64);
    }

    function lastTokenId() external view returns (uint256) {
        return uint64(_counters);
    }

    // ---- ERC-721 ----

    function name() external pure returns (string memory) {
        return NAME;
    }

    function symbol() external pure returns (string memory) {
        return SYMBOL;
    }

    function tokenURI(uint256 tokenId) external view returns (string memory) {
        _requireOwned(tokenId);
        (address data, uint256 offset, uint256 flags) = _locate(tokenId);
        if (flags & RANGE != 0) {
            uint256 start = RANGE_HEADER + 32 * (_word(data, RANGE_HEADER - 2) >> 240);
            return string.concat(string(_code(data, start, data.code.length - start)), Strings.toString(tokenId));
        }
        offset += 32 + _perPassportFields(flags);
        uint256 length = _word(data, offset) >> 240;
        return string(_code(data, offset + 2, length));
    }

    function balanceOf(address owner) external view returns (uint256) {
        if (owner == address(0)) revert ERC721InvalidOwner(address(0));
        return _balances[owner];
    }

    function ownerOf(uint256 tokenId) public view returns (address) {
        return _requireOwned(tokenId);
    }

    function approve(address to, uint256 tokenId) external {
        address owner = _requireOwned(tokenId);
        if (msg.sender != owner && !_operatorApprovals[owner][msg.sender]) revert ERC721InvalidApprover(msg.sender);
        _tokenApprovals[tokenId] = to;
        emit Approval(owner, to, tokenId);
    }

    function getApproved(uint256 tokenId) external view returns (address) {
        _requireOwned(tokenId);
        return _tokenApprovals[tokenId];
    }

    function setApprovalForAll(address operator, bool approved) external {
        if (operator == address(0)) revert ERC721InvalidOperator(operator);
        _operatorApprovals[msg.sender][operator] = approved;
        emit ApprovalForAll(msg.sender, operator, approved);
    }

    function isApprovedForAll(address owner, address operator) external view returns (bool) {
        return _operatorApprovals[owner][operator];
    }

    function transferFrom(address from, address to, uint256 tokenId) public {
        if (to == address(0)) revert ERC721InvalidReceiver(address(0));
        _transfer(from, to, tokenId, msg.sender);
    }

    function safeTransferFrom(address from, address to, uint256 tokenId) external {
        safeTransferFrom(from, to, tokenId, "");
    }

    function safeTransferFrom(address from, address to, uint256 tokenId, bytes memory data) public {
        transferFrom(from, to, tokenId);
        ERC721Utils.checkOnERC721Received(msg.sender, from, to, tokenId, data);
    }

    function supportsInterface(bytes4 interfaceId) public view override(AccessControl, IERC165) returns (bool) {
        return interfaceId == type(IERC721).interfaceId || interfaceId == type(IERC721Metadata).interfaceId
            || super.supportsInterface(interfaceId);
    }

    // ---- internals ----

    function _claim(uint256 tokenId, address account) private activeToken(tokenId) {
        address claimant = _claimants[tokenId];
        if (claimant == address(0)) revert NoClaimAuthorized(tokenId);
        if (account != claimant) revert NotAuthorizedClaimant(tokenId, account);
        address from = ownerOf(tokenId);
        // no receiver callback (as transferFrom); the transfer clears the authorization.
        _transfer(from, account, tokenId, address(0));
        emit OwnershipClaimed(tokenId, from, account);
    }

    /// Moves a token; `spender` must be allowed to (address(0): the contract itself, for claims). Every
    /// transfer clears the token's approval and its pending claim (granted against the previous owner); a
    /// recycled token cannot move any more.
    function _transfer(address from, address to, uint256 tokenId, address spender) private {
        if (!_exists(tokenId)) revert ERC721NonexistentToken(tokenId);
        if (_isRecycled(tokenId)) revert TokenIsRecycled(tokenId);
        address owner = _ownerOf(tokenId);
        if (
            spender != address(0) && spender != owner && !_operatorApprovals[owner][spender]
                && _tokenApprovals[tokenId] != spender
        ) revert ERC721InsufficientApproval(spender, tokenId);
        if (owner != from) revert ERC721IncorrectOwner(from, tokenId, owner);
        delete _tokenApprovals[tokenId];
        delete _claimants[tokenId];
        unchecked {
            _balances[from] -= 1;
            _balances[to] += 1;
        }
        _movedOwner[tokenId] = to;
        emit Transfer(from, to, tokenId);
    }

    function _requireOwned(uint256 tokenId) private view returns (address) {
        if (!_exists(tokenId)) revert ERC721NonexistentToken(tokenId);
        return _ownerOf(tokenId);
    }

    /// The owner of an existing token: the last transfer's receiver, else the one its record names.
    function _ownerOf(uint256 tokenId) private view returns (address) {
        address moved = _movedOwner[tokenId];
        if (moved != address(0)) return moved;
        (address data, uint256 offset, uint256 flags) = _locate(tokenId);
        uint256 at = flags & OWNER_PER_PASSPORT != 0 ? offset + 32 : 2;
        return address(uint160(_word(data, at) >> 96));
    }

    /// The deposit the mint locked (recycling pays it out once).
    function _recordedDeposit(uint256 tokenId) private view returns (uint256) {
        (address data, uint256 offset, uint256 flags) = _locate(tokenId);
        uint256 at;
        if (flags & DEPOSIT_PER_PASSPORT != 0) at = offset + 32 + (flags & OWNER_PER_PASSPORT != 0 ? 20 : 0);
        else at = flags & OWNER_PER_PASSPORT != 0 ? 2 : 22;
        return _word(data, at) >> 160;
    }

    function _isRecycled(uint256 tokenId) private view returns (bool) {
        return (_recycled[tokenId >> 8] >> (tokenId & 0xff)) & 1 == 1;
    }

    function _entry(uint256 tokenId) private view returns (uint256) {
        if (tokenId == 0 || tokenId > type(uint64).max) return 0;
        return (_index[tokenId / ENTRIES_PER_SLOT] >> ((tokenId % ENTRIES_PER_SLOT) * ENTRY_BITS)) & 0xffffffffffff;
    }

    function _exists(uint256 tokenId) private view returns (bool) {
        return _entry(tokenId) != 0 || _inRange(tokenId);
    }

    /// A token's record (data contract | mint block << 160, as `_records` holds it) and the byte offset of its
    /// passport there (from its index entry, else its range); record zero: no such token.
    function _find(uint256 tokenId) private view returns (uint256 record, uint256 offset) {
        uint256 entry = _entry(tokenId);
        if (entry != 0) return (_records[entry >> 16], entry & 0xffff);
        (uint256 first, uint256 range) = _rangeOf(tokenId);
        if (range == 0) return (0, 0);
        return (range, RANGE_HEADER + 32 * (tokenId - first));
    }

    function _inRange(uint256 tokenId) private view returns (bool) {
        (, uint256 range) = _rangeOf(tokenId);
        return range != 0;
    }

    /// The range holding a token: its first token and its `_ranges` value, or zeros. Ranges never overlap and
    /// hold at most 256 tokens, so the token's range is the last one starting at or below it, in the token's
    /// bitmap word or the one before.
    function _rangeOf(uint256 tokenId) private view returns (uint256 first, uint256 range) {
        if (tokenId == 0 || tokenId > type(uint64).max) return (0, 0);
        uint256 word = tokenId >> 8;
        uint256 bits = _rangeStarts[word] & (type(uint256).max >> (255 - (tokenId & 0xff)));
        if (bits == 0) {
            if (word == 0) return (0, 0);
            word -= 1;
            bits = _rangeStarts[word];
            if (bits == 0) return (0, 0);
        }
        first = (word << 8) | Math.log2(bits);
        range = _ranges[first];
        if (tokenId - first >= range >> 224) return (0, 0);
    }

    /// The data contract of an existing token, the byte offset of its passport there and the record's flags.
    function _locate(uint256 tokenId) private view returns (address data, uint256 offset, uint256 flags) {
        uint256 record;
        (record, offset) = _find(tokenId);
        data = address(uint160(record));
        flags = _word(data, 1) >> 248;
    }

    function _perPassportFields(uint256 flags) private pure returns (uint256) {
        return (flags & OWNER_PER_PASSPORT != 0 ? 20 : 0) + (flags & DEPOSIT_PER_PASSPORT != 0 ? 12 : 0);
    }

    function _deposit96(uint256 deposit) private pure returns (uint256) {
        if (deposit > type(uint96).max) revert DepositTooLarge(deposit);
        return deposit;
    }

    /// Writes the top `length` bytes of `value` at `cursor` (a whole word: the buffer has slack).
    function _put(uint256 cursor, uint256 value, uint256 length) private pure returns (uint256) {
        assembly ("memory-safe") {
            mstore(cursor, value)
        }
        return cursor + length;
    }

    /// Where the record's data (its STOP byte) begins in memory: offsets are counted from there.
    function _codeStart(bytes memory code) private pure returns (uint256 start) {
        assembly ("memory-safe") {
            start := add(add(code, 32), INIT_CODE_SIZE)
        }
    }

    /// 32 bytes of a data contract's code from `offset` (zeros past its end).
    function _word(address data, uint256 offset) private view returns (uint256 value) {
        assembly ("memory-safe") {
            extcodecopy(data, 0, offset, 32)
            value := mload(0)
        }
    }

    function _code(address data, uint256 offset, uint256 length) private view returns (bytes memory out) {
        out = new bytes(length);
        assembly ("memory-safe") {
            extcodecopy(data, add(out, 32), offset, length)
        }
    }
}
