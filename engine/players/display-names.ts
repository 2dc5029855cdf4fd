import { hash } from 'node:crypto';

const ADJECTIVES = [
  'Swift',
  'Brave',
  'Clever',
  'Mighty',
  'Silent',
  'Lucky',
  'Fierce',
  'Nimble',
  'Bold',
  'Calm',
  'Eager',
  'Gentle',
  'Jolly',
  'Keen',
  'Loyal',
  'Proud',
  'Quick',
  'Royal',
  'Sly',
  'Witty',
];
const ANIMALS = [
  'Otter',
  'Falcon',
  'Tiger',
  'Panda',
  'Wolf',
  'Fox',
  'Hawk',
  'Lynx',
  'Bear',
  'Raven',
  'Koala',
  'Badger',
  'Heron',
  'Moose',
  'Gecko',
  'Orca',
  'Puma',
  'Bison',
  'Crane',
  'Yak',
];

/** The name shown for a player who never chose one: stable, readable, derived from the id. */
export function generatedDisplayName(playerId: string): string {
  const digest = hash('sha256', playerId, 'buffer');
  const adjective = ADJECTIVES[digest[0]! % ADJECTIVES.length];
  const animal = ANIMALS[digest[1]! % ANIMALS.length];
  return `${adjective} ${animal} ${digest.readUInt16BE(2) % 1000}`;
}
