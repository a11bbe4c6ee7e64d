import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { lazy, Suspense } from 'react';
import { Link as RouterLink } from 'react-router';
import { usePageTitle } from '../../../components/page-title.ts';
import { useIsConnected } from '../../../lib/auth-store.ts';

const STEPS = [
  {
    title: 'Créez votre compte',
    text: 'Inscrivez-vous avec un nom d’utilisateur, une adresse e-mail et un mot de passe, puis cliquez sur le lien reçu par e-mail pour activer le compte.',
    action: { to: '/register', label: 'Créer un compte' },
  },
  {
    title: 'Achetez une offre',
    text: 'Dans la boutique de votre espace, choisissez l’offre qui vous convient. Elle ouvre l’accès au bot (récolte, chasse au trésor) pour sa durée.',
    action: { to: '/account/marketplace', label: 'Voir la boutique' },
  },
  {
    title: 'Installez le bot',
    text: 'Téléchargez le bot et installez-le sur le PC qui le fera tourner. Ajoutez dans votre liste blanche les comptes de jeu qu’il a le droit d’utiliser.',
    download: true,
  },
  {
    title: 'Collez votre clé d’accès',
    text: 'Dans « Mon compte », affichez votre clé d’accès du bot, copiez-la et collez-la dans le bot au premier lancement. Ne la partagez avec personne : vous pouvez la régénérer à tout moment.',
    action: { to: '/account', label: 'Mon compte' },
  },
  {
    title: 'Suivez votre bot',
    text: 'Une fois lancé, votre bot apparaît dans « Mon bot » : état de chaque compte, position et gains, en direct.',
  },
];

// Signed-in visitors only: the card and its checks load on use, outside this page's budget (decision 103).
const DownloadCard = lazy(() =>
  import('../../releases/index.ts').then((releases) => ({ default: releases.DownloadCard })),
);

function DownloadStep() {
  const isConnected = useIsConnected();
  if (!isConnected) {
    return (
      <Button component={RouterLink} to="/login" size="small" sx={{ mt: 1, px: 0 }}>
        Se connecter pour télécharger le bot
      </Button>
    );
  }
  return (
    <Box sx={{ mt: 2 }}>
      <Suspense fallback={null}>
        <DownloadCard />
      </Suspense>
    </Box>
  );
}

export default function StartedPage() {
  usePageTitle('Bien démarrer');
  return (
    <Container maxWidth="md" sx={{ py: { xs: 4, md: 8 } }}>
      <Typography variant="h1" sx={{ fontSize: { xs: '2rem', md: '2.6rem' } }}>
        Bien démarrer
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1, mb: 4 }}>
        Cinq étapes pour faire tourner votre premier bot.
      </Typography>
      <Box component="ol" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 2 }}>
        {STEPS.map((step, index) => (
          <Paper component="li" key={step.title} variant="outlined" sx={{ p: 3, display: 'flex', gap: 2 }}>
            <Typography
              variant="h2"
              component="span"
              color="primary"
              sx={{ fontSize: '1.6rem', minWidth: 32 }}
            >
              {index + 1}
            </Typography>
            <Box>
              {/* h2 under the page's h1 (h3 broke the heading order); the look stays an h3's. */}
              <Typography variant="h3" component="h2" sx={{ fontSize: '1.2rem' }}>
                {step.title}
              </Typography>
              <Typography color="text.secondary" sx={{ mt: 1 }}>
                {step.text}
              </Typography>
              {step.action ? (
                <Button component={RouterLink} to={step.action.to} size="small" sx={{ mt: 1, px: 0 }}>
                  {step.action.label}
                </Button>
              ) : null}
              {step.download ? <DownloadStep /> : null}
            </Box>
          </Paper>
        ))}
      </Box>
      <Paper
        component="aside"
        variant="outlined"
        aria-label="Qu’est-ce que le HWID ?"
        sx={{ mt: 4, p: 3, borderColor: 'info.main', bgcolor: 'rgba(41, 182, 246, 0.08)' }}
      >
        <Typography variant="h3" component="h2" sx={{ fontSize: '1.1rem', mb: 1 }}>
          Qu’est-ce que le HWID ?
        </Typography>
        <Typography color="text.secondary">
          C’est l’identifiant matériel du PC qui fait tourner votre bot. Au premier lancement, le bot lie
          votre compte à ce PC : il ne pourra pas être utilisé depuis un autre. Pour changer de PC, déliez
          l’ancien depuis « Mon compte » (une fois par période de quelques heures).
        </Typography>
      </Paper>
    </Container>
  );
}
