// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {ERC721URIStorage} from "@openzeppelin/contracts/token/ERC721/extensions/ERC721URIStorage.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";

/// @title Digital Product Passport
/// @notice One ERC-721 token per physical item, bound to the hash of its NFC chip UID.
/// Roles: DEFAULT_ADMIN_ROLE is the platform admin (claims, recycling, role management);
/// MINTER_ROLE is the platform minter (minting, supply-chain events, recycling).
/// The platform relays every call: owners and buyers never need gas.
contract DigitalProductPassport is ERC721URIStorage, AccessControl, ReentrancyGuard {
    bytes32 public constant MINTER_ROLE = keccak256("MINTER_ROLE");

    /// @notice One passport of a `mintBatch`.
    struct MintOrder {
        address to;
        uint256 tokenId;
        string metadataUri;
        bytes32 chipHash;
        uint256 deposit;
    }

    struct Passport {
        bytes32 chipHash;
        uint256 deposit;
        uint64 mintBlock;
        bool recycled;
        address claimant;
    }

    uint256 private _lastTokenId;
    uint256 private _mintedCount;
    mapping(bytes32 chipHash => uint256 tokenId) private _tokenOfChip;
    mapping(uint256 tokenId => Passport) private _passports;

    event Minted(
        uint256 indexed tokenId, address indexed owner, bytes32 indexed chipHash, string metadataUri, uint256 deposit
    );
    event SupplyChainEvent(uint256 indexed tokenId, string action, bytes32 dataHash, address indexed actor);
    event ClaimAuthorized(uint256 indexed tokenId, address indexed account, address indexed currentOwner);
    event ClaimRevoked(uint256 indexed tokenId, address indexed account);
    event OwnershipClaimed(uint256 indexed tokenId, address indexed from, address indexed to);
    event Recycled(uint256 indexed tokenId, address indexed rewardReceiver, uint256 amount);

    error ZeroAddress();
    error InvalidChipHash();
    error EmptyMetadataUri();
    error EmptyAction();
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

    modifier onlyMinterOrAdmin() {
        if (!hasRole(MINTER_ROLE, msg.sender) && !hasRole(DEFAULT_ADMIN_ROLE, msg.sender)) {
            revert NotMinterOrAdmin(msg.sender);
        }
        _;
    }

    modifier activeToken(uint256 tokenId) {
        if (_ownerOf(tokenId) == address(0)) revert UnknownToken(tokenId);
        if (_passports[tokenId].recycled) revert TokenIsRecycled(tokenId);
        _;
    }

    modifier existingToken(uint256 tokenId) {
        if (_ownerOf(tokenId) == address(0)) revert UnknownToken(tokenId);
        _;
    }

    constructor(address admin, address minter) ERC721("Digital Product Passport", "DPP") {
        if (admin == address(0) || minter == address(0)) revert ZeroAddress();
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
        _grantRole(MINTER_ROLE, minter);
    }

    /// @notice Mints the passport of one chip under the next token id (1, 2, 3, ... unless ids were
    /// chosen with `mintWithId`: then one above the highest id so far). `msg.value` is locked as the
    /// circular deposit (zero is allowed: not every product carries one) until `recycle` releases it.
    function mint(address to, string calldata metadataUri, bytes32 chipHash)
        external
        payable
        onlyRole(MINTER_ROLE)
        returns (uint256 tokenId)
    {
        tokenId = _lastTokenId + 1;
        _mintPassport(to, tokenId, metadataUri, chipHash, msg.value);
    }

    /// @notice Like `mint`, under a token id the platform reserved beforehand (so that the metadata can
    /// name it). Ids are positive, fit in 64 bits and are used once.
    function mintWithId(address to, uint256 tokenId, string calldata metadataUri, bytes32 chipHash)
        external
        payable
        onlyRole(MINTER_ROLE)
    {
        _mintReservedId(to, tokenId, metadataUri, chipHash, msg.value);
    }

    /// @notice Several `mintWithId`s in one transaction, all or none: each order's deposit is locked for
    /// its token and `msg.value` must be their sum. Every passport emits its own `Minted`.
    function mintBatch(MintOrder[] calldata orders) external payable onlyRole(MINTER_ROLE) {
        if (orders.length == 0) revert EmptyBatch();
        uint256 ordered;
        for (uint256 i = 0; i < orders.length; ++i) {
            MintOrder calldata order = orders[i];
            _mintReservedId(order.to, order.tokenId, order.metadataUri, order.chipHash, order.deposit);
            ordered += order.deposit;
        }
        if (ordered != msg.value) revert DepositMismatch(ordered, msg.value);
    }

    function logEvent(uint256 tokenId, string calldata action, bytes32 dataHash)
        external
        onlyMinterOrAdmin
        activeToken(tokenId)
    {
        if (bytes(action).length == 0) revert EmptyAction();
        emit SupplyChainEvent(tokenId, action, dataHash, msg.sender);
    }

    /// @notice Allows `account` to take the token over from its current owner (resale).
    /// A new authorization replaces the previous one; any transfer clears it.
    function authorizeClaim(uint256 tokenId, address account)
        external
        onlyRole(DEFAULT_ADMIN_ROLE)
        activeToken(tokenId)
    {
        if (account == address(0)) revert ZeroAddress();
        _passports[tokenId].claimant = account;
        emit ClaimAuthorized(tokenId, account, _ownerOf(tokenId));
    }

    function revokeClaim(uint256 tokenId) external onlyRole(DEFAULT_ADMIN_ROLE) existingToken(tokenId) {
        address account = _passports[tokenId].claimant;
        if (account == address(0)) revert NoClaimAuthorized(tokenId);
        delete _passports[tokenId].claimant;
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
        Passport storage passport = _passports[tokenId];
        if (passport.recycled) revert AlreadyRecycled(tokenId);
        if (rewardReceiver == address(0)) revert ZeroAddress();
        uint256 amount = passport.deposit;
        passport.recycled = true;
        passport.deposit = 0;
        passport.claimant = address(0);
        emit Recycled(tokenId, rewardReceiver, amount);
        if (amount > 0) {
            (bool sent,) = rewardReceiver.call{value: amount}("");
            if (!sent) revert DepositTransferFailed(tokenId, rewardReceiver, amount);
        }
    }

    function tokenOfChip(bytes32 chipHash) external view returns (uint256) {
        return _tokenOfChip[chipHash];
    }

    function chipHashOf(uint256 tokenId) external view existingToken(tokenId) returns (bytes32) {
        return _passports[tokenId].chipHash;
    }

    function depositOf(uint256 tokenId) external view existingToken(tokenId) returns (uint256) {
        return _passports[tokenId].deposit;
    }

    function isRecycled(uint256 tokenId) external view existingToken(tokenId) returns (bool) {
        return _passports[tokenId].recycled;
    }

    /// @return The account allowed to claim the token, or the zero address.
    function claimantOf(uint256 tokenId) external view existingToken(tokenId) returns (address) {
        return _passports[tokenId].claimant;
    }

    /// @notice Block of the mint: its Minted event (and transaction) can be read from that one block.
    function mintBlockOf(uint256 tokenId) external view existingToken(tokenId) returns (uint256) {
        return _passports[tokenId].mintBlock;
    }

    function totalMinted() external view returns (uint256) {
        return _mintedCount;
    }

    function lastTokenId() external view returns (uint256) {
        return _lastTokenId;
    }

    function supportsInterface(bytes4 interfaceId)
        public
        view
        override(ERC721URIStorage, AccessControl)
        returns (bool)
    {
        return super.supportsInterface(interfaceId);
    }

    function _mintReservedId(
        address to,
        uint256 tokenId,
        string calldata metadataUri,
        bytes32 chipHash,
        uint256 deposit
    ) private {
        if (tokenId == 0 || tokenId > type(uint64).max) revert InvalidTokenId(tokenId);
        if (_ownerOf(tokenId) != address(0)) revert TokenAlreadyMinted(tokenId);
        _mintPassport(to, tokenId, metadataUri, chipHash, deposit);
    }

    function _mintPassport(
        address to,
        uint256 tokenId,
        string calldata metadataUri,
        bytes32 chipHash,
        uint256 deposit
    ) private {
        if (chipHash == bytes32(0)) revert InvalidChipHash();
        if (bytes(metadataUri).length == 0) revert EmptyMetadataUri();
        uint256 existing = _tokenOfChip[chipHash];
        if (existing != 0) revert ChipAlreadyMinted(chipHash, existing);

        if (tokenId > _lastTokenId) _lastTokenId = tokenId;
        _mintedCount++;
        _tokenOfChip[chipHash] = tokenId;
        _passports[tokenId] = Passport({
            chipHash: chipHash,
            deposit: deposit,
            mintBlock: uint64(block.number),
            recycled: false,
            claimant: address(0)
        });
        // _mint, not _safeMint: no receiver callback, so minting makes no external call.
        _mint(to, tokenId);
        _setTokenURI(tokenId, metadataUri);
        emit Minted(tokenId, to, chipHash, metadataUri, deposit);
    }

    function _claim(uint256 tokenId, address account) private activeToken(tokenId) {
        address claimant = _passports[tokenId].claimant;
        if (claimant == address(0)) revert NoClaimAuthorized(tokenId);
        if (account != claimant) revert NotAuthorizedClaimant(tokenId, account);
        address from = _ownerOf(tokenId);
        // _transfer (not safeTransfer): no receiver callback; _update clears the authorization.
        _transfer(from, account, tokenId);
        emit OwnershipClaimed(tokenId, from, account);
    }

    /// @dev Every transfer clears a pending claim (it was granted against the previous owner);
    /// a recycled token cannot move any more.
    function _update(address to, uint256 tokenId, address auth) internal override returns (address) {
        address from = _ownerOf(tokenId);
        if (from != address(0)) {
            if (_passports[tokenId].recycled) revert TokenIsRecycled(tokenId);
            delete _passports[tokenId].claimant;
        }
        return super._update(to, tokenId, auth);
    }
}
