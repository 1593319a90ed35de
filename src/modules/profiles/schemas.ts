import { Type, type Static } from 'typebox';
import { EXAMPLE, Ghs, Success, Text, Timestamp } from '../../lib/wire.js';

/** The profile of the user that owns the key, as GET /api/v1/profile returns it. */
export const Profile = Type.Object({
  _id: Text('Profile identifier', EXAMPLE.profileId),
  _creationTime: Timestamp('Record creation timestamp'),
  userId: Text('User identifier', EXAMPLE.profileId),
  firstName: Text('First name', 'Ama'),
  middleName: Text('Middle name (may be empty)', ''),
  lastName: Text('Last name', 'Mensah'),
  fullName: Text('Full name', 'Ama Mensah'),
  gender: Text('Gender', 'Female'),
  phoneNumber: Text('Contact phone, local country format', '0244000001'),
  email: Text('Contact e-mail', 'ama.mensah@example.com'),
  role: Text('Agent, SuperAgent, Customer or Staff: prices and permissions follow it', 'SuperAgent'),
  status: Text('Account status: Active, Suspended, others possible', 'Active'),
  countryCode: Text('Dial code (may be empty)', '+233'),
  countryISO: Text('ISO country code', 'GH'),
  countryName: Text('Country name', 'Ghana'),
  referralCode: Text('Unique referral code', 'AMA001'),
  uniqueId: Text('Internal unique identifier', 'usr_ama'),
  creatorId: Text('Id of the user that created the profile', 'usr_ama'),
  registeredAt: Timestamp('When the profile was registered'),
  createdAt: Timestamp('Record creation timestamp'),
  updatedAt: Timestamp('Last update'),
  updateMeta: Type.Object(
    {
      action: Text('What the last update did', 'import'),
      name: Text('Who made it', 'seed import'),
      userId: Text('Their user id', 'system'),
    },
    { description: 'Last update metadata' },
  ),
  walletAvailableBalance: Ghs("Immediately spendable funds of the key's mode, GHS", 482.6),
  walletHeldBalance: Ghs('Funds reserved for pending orders, GHS', 5.4),
  walletTotalBalance: Ghs('Available plus held, GHS', 488),
});
export type Profile = Static<typeof Profile>;
export const ProfileResponse = Success(Profile);
