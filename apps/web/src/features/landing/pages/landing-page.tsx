import { LinkButton } from '../../../components/link-button.tsx';
import { usePageTitle } from '../../../components/page-title.ts';
import { useIsConnected } from '../../../lib/auth-store.ts';
import classes from './landing-page.module.css';

/*
 * The page every first visit lands on, drawn with plain elements and static CSS with the look of MUI's
 * Box, Container, Typography, Button, Paper and icons: MUI's components and styling engine made most of
 * the time it took to load and render (docs/decisions/103).
 */

/** Paths of MUI's Bolt, Insights, Map and Security icons (@mui/icons-material, 24 × 24). */
const FEATURES = [
  {
    icon: [
      'M11 21h-1l1-7H7.5c-.58 0-.57-.32-.38-.66s.05-.08.07-.12C8.48 10.94 10.42 7.54 13 3h1l-1 7h3.5c.49 0 .56.33.47.51l-.07.15C12.96 17.55 11 21 11 21',
    ],
    title: 'Récolte et chasse au trésor',
    text: 'Votre bot récolte les ressources et enchaîne les chasses au trésor pendant que vous faites autre chose.',
  },
  {
    icon: [
      'M21 8c-1.45 0-2.26 1.44-1.93 2.51l-3.55 3.56c-.3-.09-.74-.09-1.04 0l-2.55-2.55C12.27 10.45 11.46 9 10 9c-1.45 0-2.27 1.44-1.93 2.52l-4.56 4.55C2.44 15.74 1 16.55 1 18c0 1.1.9 2 2 2 1.45 0 2.26-1.44 1.93-2.51l4.55-4.56c.3.09.74.09 1.04 0l2.55 2.55C12.73 16.55 13.54 18 15 18c1.45 0 2.27-1.44 1.93-2.52l3.56-3.55c1.07.33 2.51-.48 2.51-1.93 0-1.1-.9-2-2-2',
      'm15 9 .94-2.07L18 6l-2.06-.93L15 3l-.92 2.07L12 6l2.08.93zM3.5 11 4 9l2-.5L4 8l-.5-2L3 8l-2 .5L3 9z',
    ],
    title: 'Suivi en direct',
    text: 'Position, niveau, ressources et kamas de chaque compte de jeu, mis à jour en temps réel dans votre navigateur.',
  },
  {
    icon: [
      'm20.5 3-.16.03L15 5.1 9 3 3.36 4.9c-.21.07-.36.25-.36.48V20.5c0 .28.22.5.5.5l.16-.03L9 18.9l6 2.1 5.64-1.9c.21-.07.36-.25.36-.48V3.5c0-.28-.22-.5-.5-.5M15 19l-6-2.11V5l6 2.11z',
    ],
    title: 'Itinéraires optimisés',
    text: 'Des itinéraires préparés par notre équipe et mis à jour pour chaque zone de récolte.',
  },
  {
    icon: [
      'M12 1 3 5v6c0 5.55 3.84 10.74 9 12 5.16-1.26 9-6.45 9-12V5zm0 10.99h7c-.53 4.12-3.28 7.79-7 8.94V12H5V6.3l7-3.11z',
    ],
    title: 'Votre PC, votre clé',
    text: 'Le bot est lié à votre PC et à une clé d’accès personnelle. Vous choisissez les comptes de jeu autorisés.',
  },
];

export default function LandingPage() {
  usePageTitle('Accueil');
  const isConnected = useIsConnected();
  return (
    <>
      <section className={classes.hero}>
        <div className={classes.heroContent}>
          <h1>Votre bot travaille, vous gardez la main</h1>
          <p>
            Automatisez la récolte et la chasse au trésor, suivez chacun de vos comptes en direct et gérez
            votre abonnement depuis un seul espace.
          </p>
          <div className={classes.actions}>
            {isConnected ? (
              <LinkButton variant="contained" size="large" to="/account">
                Accéder à mon espace
              </LinkButton>
            ) : (
              <LinkButton variant="contained" size="large" to="/register">
                Créer mon compte
              </LinkButton>
            )}
            <LinkButton variant="outlined" size="large" to="/started">
              Comment ça marche ?
            </LinkButton>
          </div>
        </div>
      </section>
      <section className={classes.features} aria-label="Ce que nous proposons">
        <div className={classes.grid}>
          {FEATURES.map((feature) => (
            <div key={feature.title} className={classes.card}>
              <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
                {feature.icon.map((path) => (
                  <path key={path} d={path} />
                ))}
              </svg>
              {/* h2: the level after the page title (h1 → h3 broke the heading order). */}
              <h2>{feature.title}</h2>
              <p>{feature.text}</p>
            </div>
          ))}
        </div>
      </section>
    </>
  );
}
