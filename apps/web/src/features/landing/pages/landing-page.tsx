import BoltIcon from '@mui/icons-material/Bolt';
import InsightsIcon from '@mui/icons-material/Insights';
import MapIcon from '@mui/icons-material/Map';
import SecurityIcon from '@mui/icons-material/Security';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { usePageTitle } from '../../../components/page-header.tsx';
import { useIsConnected } from '../../../lib/auth-store.ts';

const FEATURES = [
  {
    icon: <BoltIcon color="primary" fontSize="large" />,
    title: 'Récolte et chasse au trésor',
    text: 'Votre bot récolte les ressources et enchaîne les chasses au trésor pendant que vous faites autre chose.',
  },
  {
    icon: <InsightsIcon color="primary" fontSize="large" />,
    title: 'Suivi en direct',
    text: 'Position, niveau, ressources et kamas de chaque compte de jeu, mis à jour en temps réel dans votre navigateur.',
  },
  {
    icon: <MapIcon color="primary" fontSize="large" />,
    title: 'Itinéraires optimisés',
    text: 'Des itinéraires préparés par notre équipe et mis à jour pour chaque zone de récolte.',
  },
  {
    icon: <SecurityIcon color="primary" fontSize="large" />,
    title: 'Votre PC, votre clé',
    text: 'Le bot est lié à votre PC et à une clé d’accès personnelle. Vous choisissez les comptes de jeu autorisés.',
  },
];

export default function LandingPage() {
  usePageTitle('Accueil');
  const isConnected = useIsConnected();
  return (
    <>
      <Box
        component="section"
        sx={{
          py: { xs: 8, md: 14 },
          background: 'radial-gradient(ellipse at top, rgba(79,195,247,0.18), transparent 60%)',
        }}
      >
        <Container maxWidth="md" sx={{ textAlign: 'center' }}>
          <Typography variant="h1" sx={{ fontSize: { xs: '2.2rem', md: '3.4rem' } }}>
            Votre bot travaille, vous gardez la main
          </Typography>
          <Typography variant="h5" component="p" color="text.secondary" sx={{ mt: 3 }}>
            Automatisez la récolte et la chasse au trésor, suivez chacun de vos comptes en direct et gérez
            votre abonnement depuis un seul espace.
          </Typography>
          <Box
            sx={{
              mt: 5,
              display: 'flex',
              flexDirection: { xs: 'column', sm: 'row' },
              gap: 2,
              justifyContent: 'center',
            }}
          >
            {isConnected ? (
              <Button variant="contained" size="large" component={RouterLink} to="/account">
                Accéder à mon espace
              </Button>
            ) : (
              <Button variant="contained" size="large" component={RouterLink} to="/register">
                Créer mon compte
              </Button>
            )}
            <Button variant="outlined" size="large" component={RouterLink} to="/started">
              Comment ça marche ?
            </Button>
          </Box>
        </Container>
      </Box>
      <Container component="section" sx={{ pb: 10 }} aria-label="Ce que nous proposons">
        <Box
          sx={{
            display: 'grid',
            gap: 3,
            gridTemplateColumns: { xs: '1fr', md: '1fr 1fr', lg: 'repeat(4, 1fr)' },
          }}
        >
          {FEATURES.map((feature) => (
            <Paper key={feature.title} variant="outlined" sx={{ p: 3 }}>
              {feature.icon}
              <Typography variant="h3" sx={{ fontSize: '1.2rem', mt: 2 }}>
                {feature.title}
              </Typography>
              <Typography color="text.secondary" sx={{ mt: 1 }}>
                {feature.text}
              </Typography>
            </Paper>
          ))}
        </Box>
      </Container>
    </>
  );
}
